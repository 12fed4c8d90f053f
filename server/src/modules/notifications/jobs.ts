import { z } from 'zod';
import type { JobQueue } from '../../jobs/job-queue';
import type { Executor } from './notifications.repo';

// The notifications module's jobs as the code that enqueues them sees them; handlers in
// job-handlers.ts.

/**
 * Sends one recipient's notification email for a window (enqueued when their first waiting
 * notification is made, to run at the window's end). `batchId` keys its notification_emails row.
 */
export const sendBatchJob = {
  name: 'notifications.send-batch',
  payload: z.object({ userId: z.string().min(1), batchId: z.string().min(1).max(200) }),
};

/** Starts a recipient's window: their batch job runs at its end (`batchSeconds` from now). */
export async function scheduleBatch(
  deps: { jobs: JobQueue; batchSeconds: number },
  db: Executor,
  userId: string,
  firstId: string,
): Promise<void> {
  await deps.jobs.enqueue(
    sendBatchJob,
    { userId, batchId: `${userId}:${firstId}` },
    { executor: db, delayMs: deps.batchSeconds * 1000 },
  );
}
