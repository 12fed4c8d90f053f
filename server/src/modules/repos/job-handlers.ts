import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { expireUploadJob } from './jobs';

/** What the repositories module's jobs do, through its services (registered by jobs/catalog.ts). */
export function reposJobs(services: () => Services): JobDefinition[] {
  return [
    defineJob({
      ...expireUploadJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: ({ uploadId }) => services().publish.expire(uploadId),
    }),
  ];
}
