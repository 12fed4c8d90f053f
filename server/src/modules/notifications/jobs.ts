import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { sendBatchJob } from './batch-job';

export { sendBatchJob } from './batch-job';

export function notificationsJobs(deps: { services: () => Services }): JobDefinition[] {
  return [
    defineJob({
      ...sendBatchJob,
      retryLimit: 6,
      retryDelaySeconds: 60,
      timeoutSeconds: 5 * 60,
      handle: async (payload, context) => {
        await deps.services().notifications.sendBatch(payload, context.logger);
      },
    }),
  ];
}
