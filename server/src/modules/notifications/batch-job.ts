import { z } from 'zod';

/**
 * Sends one recipient's notification email for a window (enqueued when their first waiting
 * notification is made, to run at the window's end). `batchId` keys its notification_emails row.
 */
export const sendBatchJob = {
  name: 'notifications.send-batch',
  payload: z.object({ userId: z.string().min(1), batchId: z.string().min(1).max(200) }),
};
