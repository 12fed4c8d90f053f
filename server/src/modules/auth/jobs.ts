import { z } from 'zod';

// The auth module's jobs as the code that enqueues them sees them; handlers in job-handlers.ts.

/** Recurring (see jobs/recurring.ts): deletes the rate-limit windows that are over. */
export const pruneRateLimitsJob = {
  name: 'rate-limits.prune',
  payload: z.object({}),
};
