import { z } from 'zod';
import type { Clock } from '../../clock';
import type { JobQueue } from '../../jobs/job-queue';
import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { expireDemoAccounts } from './demo-expiry';

/** Ends a demo account (and any other expired one) 24 hours after it began. */
export const expireDemoAccountJob = {
  name: 'demo.expire-account',
  payload: z.object({ userId: z.string().min(1) }),
};

export function demoJobs(deps: {
  clock: Clock;
  queue: () => JobQueue;
  services: () => Services;
}): JobDefinition[] {
  return [
    defineJob({
      ...expireDemoAccountJob,
      retryLimit: 8,
      retryDelaySeconds: 60,
      handle: ({ userId }) => {
        const services = deps.services();
        return expireDemoAccounts(
          {
            demo: services.demoRepo,
            projects: services.projects,
            repos: services.repos,
            clock: deps.clock,
            jobs: deps.queue(),
          },
          userId,
        );
      },
    }),
  ];
}
