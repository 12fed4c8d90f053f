import { z } from 'zod';

// The demo module's jobs as the code that enqueues them sees them; handlers in job-handlers.ts.

/** Ends a demo account (and any other expired one) 24 hours after it began. */
export const expireDemoAccountJob = {
  name: 'demo.expire-account',
  payload: z.object({ userId: z.string().min(1) }),
};
