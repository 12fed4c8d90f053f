import { z } from 'zod';
import type { ObjectStore } from '../storage/object-store';
import { defineJob, type JobDefinition } from './registry';

export interface JobCatalogDeps {
  storage: ObjectStore;
}

/** Removes stored objects once the rows that referenced them are gone. */
export const deleteObjectsJob = (deps: JobCatalogDeps) =>
  defineJob({
    name: 'storage.delete-objects',
    payload: z.object({ keys: z.array(z.string().min(1)).min(1).max(1000) }),
    retryLimit: 8,
    retryDelaySeconds: 30,
    handle: async ({ keys }) => {
      // Deleting a missing object is not an error, so a rerun is harmless.
      for (const key of keys) await deps.storage.delete(key);
    },
  });

/** Every job the app runs. A worker registers all of them. */
export function createJobCatalog(deps: JobCatalogDeps): JobDefinition[] {
  return [deleteObjectsJob(deps)];
}
