import { defineJob, type JobDefinition } from '../jobs/registry';
import { deleteObjectsJob } from './jobs';
import type { ObjectStore } from './object-store';

/** What the storage jobs do: they need only the object store (registered by jobs/catalog.ts). */
export function storageJobs(storage: ObjectStore): JobDefinition[] {
  return [
    defineJob({
      ...deleteObjectsJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: async ({ keys }) => {
        // Deleting a missing object is not an error, so a rerun is harmless.
        for (const key of keys) await storage.delete(key);
      },
    }),
  ];
}
