import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { pruneRateLimitsJob } from './jobs';

/** What the auth module's jobs do, through the services (registered by jobs/catalog.ts). */
export function authJobs(services: () => Services): JobDefinition[] {
  return [
    defineJob({
      ...pruneRateLimitsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 5 * 60,
      handle: async (_payload, context) => {
        const { limiter, magic } = services();
        const removed = await limiter.prune();
        if (removed > 0) context.logger.info({ removed }, 'expired rate-limit windows removed');
        const forgotten = await magic.pruneFailures();
        if (forgotten > 0) context.logger.info({ forgotten }, 'old code-failure budgets removed');
      },
    }),
  ];
}
