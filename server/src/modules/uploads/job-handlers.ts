import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { expireResumableUploadsJob } from './jobs';

/** What the uploads module's jobs do, through its service (registered by jobs/catalog.ts). */
export function uploadsJobs(services: () => Services): JobDefinition[] {
  return [
    defineJob({
      ...expireResumableUploadsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 10 * 60,
      handle: async (_payload, context) => {
        const removed = await services().resumable.expire();
        if (removed > 0) context.logger.info({ removed }, 'abandoned resumable uploads removed');
      },
    }),
  ];
}
