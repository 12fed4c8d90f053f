import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import {
  cleanupBatchJob,
  cleanupJob,
  losslessBackfillJob,
  processBounceJob,
  processVersionJob,
} from './jobs';

/** What the audio module's jobs do, through its service (registered by jobs/catalog.ts). */
export function audioJobs(services: () => Services, mediaTimeoutMs: number): JobDefinition[] {
  const processingTimeout = Math.ceil(mediaTimeoutMs / 1000) + 60;
  return [
    defineJob({
      ...processVersionJob,
      retryLimit: 2,
      retryDelaySeconds: 15,
      timeoutSeconds: processingTimeout,
      handle: ({ versionId }, context) => services().audio.process('versions', versionId, context),
    }),
    defineJob({
      ...processBounceJob,
      retryLimit: 2,
      retryDelaySeconds: 15,
      timeoutSeconds: processingTimeout,
      handle: ({ bounceId }, context) => services().audio.process('bounces', bounceId, context),
    }),
    defineJob({
      ...losslessBackfillJob,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: processingTimeout + 120,
      handle: (_payload, context) => services().audio.backfillLossless(context),
    }),
    defineJob({
      ...cleanupBatchJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: ({ batchId }) => services().audio.drainCleanup(batchId),
    }),
    defineJob({
      ...cleanupJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: ({ keys, originalKeys }) => services().audio.deleteStored(keys, originalKeys),
    }),
  ];
}
