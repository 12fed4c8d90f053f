import { z } from 'zod';
import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';

/** Recurring (see jobs/recurring.ts): removes resumable uploads abandoned for 24 hours. */
export const expireResumableUploadsJob = {
  name: 'uploads.expire-resumable',
  payload: z.object({}),
};

export function uploadsJobs(deps: { services: () => Services }): JobDefinition[] {
  return [
    defineJob({
      ...expireResumableUploadsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 10 * 60,
      handle: async (_payload, context) => {
        const removed = await deps.services().resumable.expire();
        if (removed > 0) context.logger.info({ removed }, 'abandoned resumable uploads removed');
      },
    }),
  ];
}
