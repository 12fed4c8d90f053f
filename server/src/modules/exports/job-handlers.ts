import type { JobDefinition } from '../../jobs/registry';
import { zipArchiveJobs } from '../../jobs/zip-archive-jobs';
import type { Services } from '../../services';
import { buildExportJob, expireExportsJob } from './jobs';

/** The exports module's jobs: 'Export my data' zips, built and expired. */
export function exportsJobs(services: () => Services): JobDefinition[] {
  return zipArchiveJobs({
    build: buildExportJob,
    expire: expireExportsJob,
    buildOne: ({ exportId }, context) => services().exports.build(exportId, context),
    expireAll: () => services().exports.expire(),
    expiredMessage: 'expired exports removed',
  });
}
