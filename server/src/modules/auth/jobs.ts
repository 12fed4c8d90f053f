import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import { RateLimiter } from '../../auth/rate-limiter';
import { defineJob, type JobDefinition } from '../../jobs/registry';
import { pruneCodeFailures } from './magic-code.service';
import { MagicCodesRepo } from './magic-codes.repo';

/** Recurring (see jobs/recurring.ts): deletes the rate-limit windows that are over. */
export const pruneRateLimitsJob = {
  name: 'rate-limits.prune',
  payload: z.object({}),
};

export function authJobs(deps: { db: Kysely<Database>; clock: Clock }): JobDefinition[] {
  return [
    defineJob({
      ...pruneRateLimitsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 5 * 60,
      handle: async (_payload, context) => {
        const removed = await new RateLimiter(deps.db, deps.clock).prune();
        if (removed > 0) context.logger.info({ removed }, 'expired rate-limit windows removed');
        const forgotten = await pruneCodeFailures(new MagicCodesRepo(deps.db), deps.clock.now());
        if (forgotten > 0) context.logger.info({ forgotten }, 'old code-failure budgets removed');
      },
    }),
  ];
}
