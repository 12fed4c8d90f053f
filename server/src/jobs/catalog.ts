import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../db/schema';
import type { MediaRunner } from '../media/runner';
import {
  cleanupBatchJob,
  deleteOriginalIfUnused,
  drainCleanup,
  processAudio,
  processVersion,
} from '../modules/audio';
import { expireUpload } from '../modules/repos/upload-expiry';
import type { ObjectStore } from '../storage/object-store';
import { RateLimiter } from '../auth/rate-limiter';
import { pruneCodeFailures } from '../modules/auth/magic-code.service';
import { MagicCodesRepo } from '../modules/auth/magic-codes.repo';
import { expireDemoAccounts } from '../modules/demo/demo-expiry';
import type { JobQueue } from './job-queue';
import { defineJob, type JobDefinition } from './registry';

export interface JobCatalogDeps {
  storage: ObjectStore;
  db: Kysely<Database>;
  media: MediaRunner;
  clock: Clock;
  /** Folder for scratch files (originals fetched for processing, renditions being made). */
  tmpDir: string;
  mediaTimeoutMs: number;
  /** The queue these jobs run on, for a job that deletes through paths that queue clean-ups. */
  queue: () => JobQueue;
}

// References used to enqueue; the handlers are bound to their dependencies below.
export const deleteObjectsJob = {
  name: 'storage.delete-objects',
  payload: z.object({ keys: z.array(z.string().min(1)).min(1).max(1000) }),
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
export const processBounceJob = {
  name: 'media.process-bounce',
  payload: z.object({ bounceId: z.string().min(1) }),
};
export const expireUploadJob = {
  name: 'bounces.expire-upload',
  payload: z.object({ uploadId: z.string().min(1) }),
};
/** Recurring (see jobs/recurring.ts): deletes the rate-limit windows that are over. */
export const pruneRateLimitsJob = {
  name: 'rate-limits.prune',
  payload: z.object({}),
};
export const processVersionJob = {
  name: 'media.process-version',
  payload: z.object({ versionId: z.string().min(1) }),
};
export const expireDemoAccountJob = {
  name: 'demo.expire-account',
  payload: z.object({ userId: z.string().min(1) }),
};

/** Every job the app runs. A worker registers all of them. */
export function createJobCatalog(deps: JobCatalogDeps): JobDefinition[] {
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
    defineJob({
      ...cleanupBatchJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: ({ batchId }) => drainCleanup(deps, batchId),
    }),
    defineJob({
      ...processVersionJob,
      retryLimit: 2,
      retryDelaySeconds: 15,
      timeoutSeconds: Math.ceil(deps.mediaTimeoutMs / 1000) + 60,
      handle: ({ versionId }, context) => processVersion(deps, versionId, context),
    }),
    defineJob({
      ...processBounceJob,
      retryLimit: 2,
      retryDelaySeconds: 15,
      timeoutSeconds: Math.ceil(deps.mediaTimeoutMs / 1000) + 60,
      handle: ({ bounceId }, context) => processAudio(deps, 'bounces', bounceId, context),
    }),
    defineJob({
      ...expireUploadJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: ({ uploadId }) => expireUpload(deps, uploadId),
    }),
    defineJob({
      ...pruneRateLimitsJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 5 * 60,
      handle: async (_payload, context) => {
        const removed = await new RateLimiter(deps.db, deps.clock).prune();
        if (removed > 0) context.logger.info({ removed }, 'expired rate-limit windows removed');
        const forgotten = await pruneCodeFailures(new MagicCodesRepo(deps.db), deps.clock.now());
        if (forgotten > 0) context.logger.info({ forgotten }, 'old code-failure budgets removed');
      },
    }),
    defineJob({
      ...expireDemoAccountJob,
      retryLimit: 8,
      retryDelaySeconds: 60,
      handle: ({ userId }) => expireDemoAccounts({ ...deps, jobs: deps.queue() }, userId),
    }),
  ];
}
