import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { sendBatchJob } from './jobs';

/** What the notifications module's jobs do, through its service (registered by jobs/catalog.ts). */
export function notificationsJobs(services: () => Services): JobDefinition[] {
  return [
    defineJob({
      ...sendBatchJob,
      retryLimit: 6,
      retryDelaySeconds: 60,
      timeoutSeconds: 5 * 60,
      handle: async (payload, context) => {
        await services().notifications.sendBatch(payload, context.logger);
      },
    }),
  ];
}
