import { z } from 'zod';

// The audio module's jobs as the code that enqueues them sees them: names and payloads.
// What each one does is in job-handlers.ts.

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
 * Makes the FLAC rendition ('Lossless') for rows processed before it existed, a batch per run;
 * enqueued by every worker at start and hourly, and by itself while rows are left.
 */
export const losslessBackfillJob = {
  name: 'media.lossless-backfill',
  payload: z.object({}),
};

/** Drains one batch of `storage_cleanup` rows (queued by `queueCleanup`). */
export const cleanupBatchJob = {
  name: 'storage.cleanup-batch',
  payload: z.object({ batchId: z.string().min(1) }),
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
