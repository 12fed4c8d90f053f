import { z } from 'zod';
import { defineJob, type JobDefinition } from '../../jobs/registry';
import { processAudio, processVersion, type ProcessingDeps } from './processing';
import { cleanupBatchJob, deleteOriginalIfUnused, drainCleanup } from './stored-audio';

export { cleanupBatchJob };

/** Makes a version's renditions, waveform and loudness from its original. */
export const processVersionJob = {
  name: 'media.process-version',
  payload: z.object({ versionId: z.string().min(1) }),
};
/** The same pipeline for a published bounce. */
export const processBounceJob = {
  name: 'media.process-bounce',
  payload: z.object({ bounceId: z.string().min(1) }),
};
/**
 * Superseded by cleanupBatchJob (a payload of keys cannot hold a big project's); still handled
 * for jobs queued before the change.
 */
export const cleanupJob = {
  name: 'media.cleanup',
  payload: z.object({
    keys: z.array(z.string().min(1)).max(1000),
    originalKeys: z.array(z.string().min(1)).max(1000),
  }),
};

export function audioJobs(deps: ProcessingDeps): JobDefinition[] {
  const processingTimeout = Math.ceil(deps.mediaTimeoutMs / 1000) + 60;
  return [
    defineJob({
      ...processVersionJob,
      retryLimit: 2,
      retryDelaySeconds: 15,
      timeoutSeconds: processingTimeout,
      handle: ({ versionId }, context) => processVersion(deps, versionId, context),
    }),
    defineJob({
      ...processBounceJob,
      retryLimit: 2,
      retryDelaySeconds: 15,
      timeoutSeconds: processingTimeout,
      handle: ({ bounceId }, context) => processAudio(deps, 'bounces', bounceId, context),
    }),
    defineJob({
      ...cleanupBatchJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: ({ batchId }) => drainCleanup(deps, batchId),
    }),
    defineJob({
      ...cleanupJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: async ({ keys, originalKeys }) => {
        for (const key of keys) await deps.storage.delete(key);
        // Originals are shared by content hash: keep one another version or bounce still uses.
        for (const key of originalKeys) await deleteOriginalIfUnused(deps.db, deps.storage, key);
      },
    }),
  ];
}
