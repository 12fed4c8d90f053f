import { z } from 'zod';

// The collections module's jobs as the code that enqueues them sees them; handlers in
// job-handlers.ts.

/** Builds one 'Download all' zip of a collection link (enqueued when a visitor asks for it). */
export const buildCollectionZipJob = {
  name: 'collections.zip-build',
  payload: z.object({ zipId: z.string().min(1).max(64) }),
};

/** Recurring (see main.ts): deletes the zips of collection links whose day is over. */
export const expireCollectionZipsJob = {
  name: 'collections.zip-expire',
  payload: z.object({}),
};
