import { z } from 'zod';

// The quotas module's jobs as the code that enqueues them sees them; handlers in job-handlers.ts.

/**
 * Recurring (see jobs/recurring.ts): removes storage holds past their time, left by uploads whose
 * process ended without releasing them (they no longer count; this keeps the table small).
 */
export const sweepStorageHoldsJob = {
  name: 'quotas.sweep-holds',
  payload: z.object({}),
};
