import type { JobDefinition } from '../../jobs/registry';
import { zipArchiveJobs } from '../../jobs/zip-archive-jobs';
import type { Services } from '../../services';
import { buildCollectionZipJob, expireCollectionZipsJob } from './jobs';

/** The collections module's jobs: 'Download all' zips of collection links, built and expired. */
export function collectionsJobs(services: () => Services): JobDefinition[] {
  return zipArchiveJobs({
    build: buildCollectionZipJob,
    expire: expireCollectionZipsJob,
    buildOne: ({ zipId }, context) => services().collectionZips.build(zipId, context),
    expireAll: () => services().collectionZips.expire(),
    expiredMessage: 'expired collection zips removed',
  });
}
