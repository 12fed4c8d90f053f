import type { JobQueue } from '../../jobs/job-queue';
import type { JobContext } from '../../jobs/registry';
import type { AudioTable } from './audio.repo';
import { losslessBackfillJob } from './jobs';
import { backfillLossless } from './lossless';
import { MEDIA_NICENESS, processAudio, type ProcessingDeps } from './processing';
import { deleteOriginalIfUnused, drainCleanup } from './stored-audio';

/**
 * The audio module's background work, wired once in createServices for its jobs: processing an
 * original into renditions, waveform and loudness, and removing stored audio nobody uses.
 */
export class AudioService {
  constructor(private readonly deps: ProcessingDeps & { jobs: Pick<JobQueue, 'enqueue'> }) {}

  /** Processes a version's or a bounce's original (see processAudio). */
  process(table: AudioTable, id: string, context: JobContext): Promise<void> {
    return processAudio(this.deps, table, id, context);
  }

  /**
   * One run of the FLAC backfill (see backfillLossless); queues the next run while rows are left,
   * a second later, so that processing queued meanwhile goes first.
   */
  async backfillLossless(context: JobContext): Promise<void> {
    const { done, more } = await backfillLossless(this.deps, MEDIA_NICENESS, context);
    if (done > 0)
      context.logger.info({ done, more }, 'lossless renditions made for earlier uploads');
    if (more) await this.deps.jobs.enqueue(losslessBackfillJob, {}, { delayMs: 1000 });
  }

  /** Removes one batch of recorded clean-up keys (see queueCleanup). */
  drainCleanup(batchId: string): Promise<void> {
    return drainCleanup(this.deps, batchId);
  }

  /** Deletes objects, and originals that nothing uses any more (shared by content hash). */
  async deleteStored(keys: string[], originalKeys: string[]): Promise<void> {
    for (const key of keys) await this.deps.storage.delete(key);
    for (const key of originalKeys)
      await deleteOriginalIfUnused(this.deps.db, this.deps.storage, key);
  }
}
