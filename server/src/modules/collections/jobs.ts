import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { buildCollectionZipJob, expireCollectionZipsJob } from './collection-zip-jobs';

export { buildCollectionZipJob, expireCollectionZipsJob } from './collection-zip-jobs';

const BUILD_RETRIES = 2;

/** The collections module's jobs: 'Download all' zips of collection links, built and expired. */
export function collectionsJobs(deps: { services: () => Services }): JobDefinition[] {
  return [
    defineJob({
      ...buildCollectionZipJob,
      retryLimit: BUILD_RETRIES,
      retryDelaySeconds: 30,
      timeoutSeconds: 60 * 60,
      handle: async ({ zipId }, context) => {
        await deps.services().collectionZips.build(zipId, {
          ...context,
          lastAttempt: context.attempt > BUILD_RETRIES,
        });
      },
    }),
    defineJob({
      ...expireCollectionZipsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 10 * 60,
      handle: async (_payload, context) => {
        const removed = await deps.services().collectionZips.expire();
        if (removed > 0) context.logger.info({ removed }, 'expired collection zips removed');
      },
    }),
  ];
}
