import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { expireDemoAccountJob } from './jobs';

/** What the demo module's jobs do, through its services (registered by jobs/catalog.ts). */
export function demoJobs(services: () => Services): JobDefinition[] {
  return [
    defineJob({
      ...expireDemoAccountJob,
      retryLimit: 8,
      retryDelaySeconds: 60,
      handle: ({ userId }) => services().demoExpiry.expire(userId),
    }),
  ];
}
