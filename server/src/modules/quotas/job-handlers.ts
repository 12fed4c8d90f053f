import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { sweepStorageHoldsJob } from './jobs';

/** What the quotas module's jobs do, through its service (registered by jobs/catalog.ts). */
export function quotasJobs(services: () => Services): JobDefinition[] {
  return [
    defineJob({
      ...sweepStorageHoldsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 60,
      handle: () => services().quotas.sweep(),
    }),
  ];
}
