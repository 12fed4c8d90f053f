import { z } from 'zod';

// The storage jobs as the code that enqueues them sees them; handlers in job-handlers.ts.

/** Deletes stored objects (covers, avatars, renditions) after their rows are gone. */
export const deleteObjectsJob = {
  name: 'storage.delete-objects',
  payload: z.object({ keys: z.array(z.string().min(1)).min(1).max(1000) }),
};
