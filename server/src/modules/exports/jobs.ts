import { z } from 'zod';

// The exports module's jobs as the code that enqueues them sees them; handlers in job-handlers.ts.

/** Builds one export's zip (enqueued when the person asks for it). */
export const buildExportJob = {
  name: 'exports.build',
  payload: z.object({ exportId: z.string().min(1).max(64) }),
};

/** Recurring (see main.ts): deletes the zips of exports whose day is over. */
export const expireExportsJob = {
  name: 'exports.expire',
  payload: z.object({}),
};
