import { z } from 'zod';

// The repositories module's jobs as the code that enqueues them sees them; handlers in
// job-handlers.ts.

/** Removes a bounce publish that was never completed, once its upload token has expired. */
export const expireUploadJob = {
  name: 'bounces.expire-upload',
  payload: z.object({ uploadId: z.string().min(1) }),
};
