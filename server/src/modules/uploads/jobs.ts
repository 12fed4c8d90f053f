import { z } from 'zod';

// The uploads module's jobs as the code that enqueues them sees them; handlers in job-handlers.ts.

/** Recurring (see jobs/recurring.ts): removes resumable uploads abandoned for 24 hours. */
export const expireResumableUploadsJob = {
  name: 'uploads.expire-resumable',
  payload: z.object({}),
};
