import { z } from 'zod';
import { defineJob, type JobDefinition } from '../jobs/registry';
import type { ObjectStore } from './object-store';

/** Deletes stored objects (covers, avatars, renditions) after their rows are gone. */
export const deleteObjectsJob = {
  name: 'storage.delete-objects',
  payload: z.object({ keys: z.array(z.string().min(1)).min(1).max(1000) }),
};

export function storageJobs(deps: { storage: ObjectStore }): JobDefinition[] {
  return [
    defineJob({
      ...deleteObjectsJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: async ({ keys }) => {
        // Deleting a missing object is not an error, so a rerun is harmless.
        for (const key of keys) await deps.storage.delete(key);
      },
    }),
  ];
}
