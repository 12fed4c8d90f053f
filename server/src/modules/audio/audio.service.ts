import type { JobContext } from '../../jobs/registry';
import type { AudioTable } from './audio.repo';
import { processAudio, type ProcessingDeps } from './processing';
import { deleteOriginalIfUnused, drainCleanup } from './stored-audio';

/**
 * The audio module's background work, wired once in createServices for its jobs: processing an
 * original into renditions, waveform and loudness, and removing stored audio nobody uses.
 */
export class AudioService {
  constructor(private readonly deps: ProcessingDeps) {}

  /** Processes a version's or a bounce's original (see processAudio). */
  process(table: AudioTable, id: string, context: JobContext): Promise<void> {
    return processAudio(this.deps, table, id, context);
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
