import { PROJECT_MESSAGES } from '@takes/contract';
import { Unsupported } from '../../errors';
import { NotAudioError, type AudioMetadata } from '../../media/audio';
import { AUDIO_MIME, type AudioFormat } from '../../media/audio-type';
import { identifyAudio } from '../../media/identify';
import type { MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import type { ScratchFile } from '../../storage/scratch-file';
import { ensureOriginal } from './stored-audio';
import { storageKeys } from './storage-keys';

export interface IntakeDeps {
  storage: ObjectStore;
  media: MediaRunner;
  mediaTimeoutMs: number;
}

export interface TakenIn {
  /** Where the original is stored: under its SHA-256, shared by every row with the same bytes. */
  key: string;
  format: AudioFormat;
  metadata: AudioMetadata;
}

/**
 * Takes in an original received to a scratch file, the one way uploads and published bounces
 * both do it: checked to be audio by its content (sniffed, then probed; 415 otherwise), then
 * stored under its content hash. `reference` records the caller's lasting claim on the key
 * before the store is looked at: a clean-up of the same original either counts that claim or
 * has deleted the object before we look (and we put it again). An object seen here stays.
 */
export async function takeInOriginal(
  deps: IntakeDeps,
  file: Pick<ScratchFile, 'path' | 'size' | 'sha256'>,
  reference: (key: string) => Promise<void>,
): Promise<TakenIn> {
  let identified: { format: AudioFormat; metadata: AudioMetadata };
  try {
    identified = await identifyAudio(deps.media, file.path, deps.mediaTimeoutMs);
  } catch (error) {
    if (error instanceof NotAudioError) throw new Unsupported(PROJECT_MESSAGES.invalidType);
    throw error;
  }
  const key = storageKeys.original(file.sha256);
  await reference(key);
  await ensureOriginal(deps.storage, key, file.size, () =>
    deps.storage.putFile(key, file.path, {
      contentType: AUDIO_MIME[identified.format],
    }),
  );
  return { key, ...identified };
}
