import type { AudioMetadata } from './probe';
import type { MediaRunner } from './runner';

/**
 * Codecs whose samples a FLAC holds exactly: integer PCM (WAV, BWF, AIFF), FLAC and ALAC. Float
 * PCM (FLAC has no float samples), 8-bit PCM (unsigned, re-coded to 16 bits) and 32-bit integer
 * PCM (beyond what ffmpeg's FLAC encoder writes without its experimental mode) are left out:
 * their 'Lossless' stays the original file.
 */
const LOSSLESS_CODECS = new Set([
  'pcm_s16le',
  'pcm_s16be',
  'pcm_s24le',
  'pcm_s24be',
  'flac',
  'alac',
]);

/**
 * The FLAC compression level, chosen by measurement (docs/operations.md, 'Lossless renditions'):
 * below level 8 the encode's CPU hardly depends on the level (reading and writing dominate), and
 * level 5, flac's own default, makes files as small as level 8's within 0.1 % in two thirds of its
 * time; levels 0 and 1 are 1–7 % larger.
 */
export const FLAC_LEVEL = 5;

/** Whether a FLAC with the original's exact samples can be made from it (see LOSSLESS_CODECS). */
export function canEncodeLossless(metadata: Pick<AudioMetadata, 'codec' | 'bitDepth'>): boolean {
  const depth = metadata.bitDepth ?? 0;
  return LOSSLESS_CODECS.has(metadata.codec ?? '') && depth >= 16 && depth <= 24;
}

/** The largest a FLAC of this audio can be: its PCM size (FLAC's verbatim frames) and headroom. */
export function losslessLimit(metadata: AudioMetadata): number {
  const seconds = (metadata.duration ?? 3600) + 5;
  const bytesPerSecond =
    (metadata.sampleRate ?? 192_000) *
    (metadata.channels ?? 8) *
    Math.ceil((metadata.bitDepth ?? 24) / 8);
  return Math.ceil(seconds * bytesPerSecond * 1.05) + 1024 * 1024;
}

/**
 * The FLAC rendition: the first audio stream at its own sample rate, bit depth and channels (ffmpeg
 * keeps all three when no filter or format is asked for), no tags or pictures, `-fs` capping the
 * size. Decoded, its samples equal the original's (the tests compare ffmpeg's `-f md5` of both).
 */
export async function encodeFlac(
  runner: MediaRunner,
  input: string,
  output: string,
  options: {
    timeoutMs: number;
    maxBytes: number;
    signal?: AbortSignal | undefined;
    niceness?: number | undefined;
  },
): Promise<void> {
  await runner.ffmpeg(
    [
      '-y',
      '-i',
      input,
      '-map',
      '0:a:0',
      '-vn',
      '-map_metadata',
      '-1',
      '-c:a',
      'flac',
      '-compression_level',
      String(FLAC_LEVEL),
      '-fs',
      String(options.maxBytes),
      '-f',
      'flac',
      output,
    ],
    { timeoutMs: options.timeoutMs, signal: options.signal, niceness: options.niceness },
  );
}
