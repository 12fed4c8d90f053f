import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { buildExportJob, expireExportsJob } from './export-jobs';

export { buildExportJob, expireExportsJob } from './export-jobs';

const BUILD_RETRIES = 2;

export function exportsJobs(deps: { services: () => Services }): JobDefinition[] {
  return [
    defineJob({
      ...buildExportJob,
      retryLimit: BUILD_RETRIES,
      retryDelaySeconds: 30,
      timeoutSeconds: 60 * 60,
      handle: async ({ exportId }, context) => {
        await deps.services().exports.build(exportId, {
          ...context,
          lastAttempt: context.attempt > BUILD_RETRIES,
        });
      },
    }),
    defineJob({
      ...expireExportsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 10 * 60,
      handle: async (_payload, context) => {
        const removed = await deps.services().exports.expire();
        if (removed > 0) context.logger.info({ removed }, 'expired exports removed');
      },
    }),
  ];
}
