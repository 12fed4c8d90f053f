import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { probeAudio } from '../../media/audio';
import type { MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import { MEDIA_NICENESS } from '../audio/processing';

/**
 * A new key for a blind option's audio: 96 random bits in hex, so the name tells nothing and
 * always starts with a letter or digit, as object keys must (base64url could start with '-' or
 * '_', which the store refuses: about one option in 32 failed to store).
 */
export function blindAudioKey(testId: string): string {
  return `blind/${testId}/${randomBytes(12).toString('hex')}.mp3`;
}

export interface BlindSource {
  /** Object-store key of the audio to decode (the version's 320k rendition, else its original). */
  key: string;
  /**
   * Integrated loudness the processing stored (LUFS), or null when unknown. The gains do not rest
   * on it: it is rounded to 0.1 LU and was taken of the source without its padding, too coarse
   * for a match within 0.1 LU, so every source is measured again here as it will be encoded.
   */
  integratedLufs: number | null;
}

export interface BlindRendition {
  /** Where the rendition is stored: `blind/<testId>/<random hex id>.mp3`. */
  key: string;
  size: number;
  /** The gain applied (dB, never above 0: every source is turned down to the quietest one). */
  gainDb: number;
  /** Its length in seconds, the same for every rendition of the test (the longest source's). */
  duration: number;
}

export interface BlindRenderDeps {
  storage: ObjectStore;
  media: MediaRunner;
  /** Wall-clock limit of each ffmpeg run (15 minutes unless given, MEDIA_TIMEOUT_SECONDS's default). */
  timeoutMs?: number;
}

const SAMPLE_RATE = 44_100;
const DEFAULT_TIMEOUT_MS = 15 * 60 * 1000;
/** The meter's floor: a source measured here is silence, which nothing can be matched to. */
const SILENCE_LUFS = -70;
/** Renditions further apart than this are corrected once; further than the most, refused. */
const AIM_LU = 0.05;
const MOST_LU = 0.1;

/**
 * Every source is heard the same way: float samples (no clipping on the way), stereo (a mono
 * source on both sides), then 44.1 kHz. The meter and the encoder both start with it, so what is
 * measured is what is encoded.
 */
const CONVERT = `aformat=sample_fmts=fltp:channel_layouts=stereo,aresample=${SAMPLE_RATE}`;

/**
 * The encoder's settings, the same for every option: CBR 320k, so equal sample counts make equal
 * frame counts and equal sizes, and the Xing/LAME header is identical in form. No ID3 tag, no
 * metadata, no chapters, no cover art; bitexact leaves the ffmpeg version out of the header.
 */
const ENCODE = (
  '-vn -map_metadata -1 -map_chapters -1 -c:a libmp3lame -b:a 320k ' +
  '-id3v2_version 0 -write_xing 1 -fflags +bitexact -flags:a +bitexact -f mp3'
).split(' ');

type RunOptions = { timeoutMs: number; signal?: AbortSignal | undefined; niceness: number };

/**
 * Renders each source (same order in the result) as a loudness-matched, equal-length, equal-size
 * MP3, so that a listener's browser can tell the options apart by their sound alone. Nothing is
 * stored until every option is encoded and checked, and a failed upload removes what was stored.
 */
export async function renderBlindOptions(
  deps: BlindRenderDeps,
  testId: string,
  sources: readonly BlindSource[],
  signal?: AbortSignal,
): Promise<BlindRendition[]> {
  signal?.throwIfAborted();
  const { media } = deps;
  const options = {
    timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal,
    niceness: MEDIA_NICENESS,
  };
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'takes-blind-'));
  try {
    // Every source is probed first: the longest one's length, counted in samples, is the length
    // of them all (the others padded with silence, and all cut to it so none is a sample longer).
    const files: string[] = [];
    const durations: number[] = [];
    for (const [index, source] of sources.entries()) {
      const scratch = path.join(work, `source-${index}`);
      const file = await localCopy(deps.storage, source.key, scratch, signal);
      const { duration } = await readable(index, signal, () =>
        probeAudio(media, file, options.timeoutMs),
      );
      files.push(file);
      durations.push(duration ?? 0);
    }
    const samples = Math.round(Math.max(...durations) * SAMPLE_RATE);
    const fit = `${CONVERT},apad=whole_len=${samples},atrim=end_sample=${samples}`;

    // Measured as they will be heard, padding included: the 400 ms blocks that straddle the end
    // of a shorter source count toward its integrated loudness, enough to spoil a 0.1 LU match.
    const loudness: number[] = [];
    for (const [index, file] of files.entries()) {
      const lufs = await readable(index, signal, () => loudnessOf(media, file, fit, options));
      if (lufs === null) throw new Error(`Blind test option ${index + 1} is silent`);
      loudness.push(lufs);
    }
    // Turned down to the quietest source: no gain above 0 dB, so nothing clips.
    const target = Math.min(...loudness);
    const gains = loudness.map((lufs) => decibels(target - lufs));
    const outputs = files.map((_, index) => path.join(work, `option-${index}.mp3`));
    const encode = async (index: number) => {
      const filter = `${fit},volume=${gains[index]}dB`;
      const args = ['-y', '-nostats', '-xerror', '-i', files[index] as string, '-map', '0:a:0'];
      await media.ffmpeg([...args, '-af', filter, ...ENCODE, outputs[index] as string], options);
    };
    const heard = () =>
      Promise.all(outputs.map((output) => renditionLoudness(media, output, options)));
    for (const index of files.keys()) await encode(index);

    // The encoder shifts loudness a little, more for bright sources (its low-pass takes what the
    // meter weights up): measured again as the listener gets it, and the gains corrected once.
    let levels = await heard();
    if (spread(levels) > AIM_LU) {
      const quietest = Math.min(...levels);
      for (const [index, level] of levels.entries()) {
        const correction = decibels(quietest - level);
        if (correction === 0) continue;
        gains[index] = decibels((gains[index] ?? 0) + correction);
        await encode(index);
      }
      levels = await heard();
    }
    if (spread(levels) > MOST_LU) {
      throw new Error(`The blind test's renditions are ${spread(levels).toFixed(2)} LU apart`);
    }

    // A size that differs would tell the options apart before a note is heard: never served.
    const sizes = await Promise.all(outputs.map(async (output) => (await fsp.stat(output)).size));
    if (new Set(sizes).size > 1) {
      throw new Error(
        `The blind test's renditions came out in different sizes (${sizes.join(', ')} bytes)`,
      );
    }
    const encoded = outputs.map((file, index) => ({ file, gainDb: gains[index] ?? 0 }));
    return await upload(deps.storage, testId, encoded, samples / SAMPLE_RATE, signal);
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** A gain to a thousandth of a dB; `|| 0`: the quietest source's is 0, not -0. */
const decibels = (value: number) => Math.round(value * 1000) / 1000 || 0;
const spread = (levels: readonly number[]) => Math.max(...levels) - Math.min(...levels);

/** Runs a step on one source, its failure told as that option's (a file that is not audio). */
async function readable<T>(
  index: number,
  signal: AbortSignal | undefined,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Blind test option ${index + 1} could not be read: ${reason}`, {
      cause: error,
    });
  }
}

/**
 * The source as a file on this machine: a local store's file is read in place (as processing
 * does), anything else is fetched to the scratch folder first, under a name of its own.
 */
async function localCopy(
  storage: ObjectStore,
  key: string,
  scratch: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const local = storage.localPath?.(key);
  if (local) return local;
  const { body } = await storage.get(key);
  const file = `${scratch}${path.extname(key)}`;
  await pipeline(body, fs.createWriteStream(file), { signal });
  return file;
}

/**
 * The integrated loudness (LUFS) of the source as it will be encoded (after `chain`), to a
 * thousandth of a LU, or null for silence. The meter's summary prints one decimal only, and two
 * roundings of 0.05 would use up the whole 0.1 LU allowed, so the value is read from the
 * metadata the meter attaches to each 100 ms frame instead: the last frame's is the whole file's.
 * `-xerror` makes any decoding error fatal, so a corrupt file fails here.
 */
async function loudnessOf(
  media: MediaRunner,
  file: string,
  chain: string,
  options: RunOptions,
): Promise<number | null> {
  const meter = `${chain},ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I`;
  const args = ['-nostats', '-xerror', '-i', file, '-map', '0:a:0', '-af', meter];
  const { stderr } = await media.ffmpeg([...args, '-f', 'null', '-'], options);
  const values = [...stderr.matchAll(/lavfi\.r128\.I=(-?[\d.]+|-?inf)/g)];
  const last = Number(values.at(-1)?.[1]);
  return Number.isFinite(last) && last > SILENCE_LUFS ? last : null;
}

/** A rendition's loudness; silence here means the encode went wrong. */
async function renditionLoudness(media: MediaRunner, file: string, options: RunOptions) {
  const lufs = await loudnessOf(media, file, CONVERT, options);
  if (lufs === null) throw new Error('A blind test rendition came out silent');
  return lufs;
}

/**
 * Stores the renditions under random names that say nothing of their versions. When one upload
 * fails, the ones before it are removed again: a test is served complete or not at all.
 */
async function upload(
  storage: ObjectStore,
  testId: string,
  encoded: readonly { file: string; gainDb: number }[],
  duration: number,
  signal: AbortSignal | undefined,
): Promise<BlindRendition[]> {
  const stored: BlindRendition[] = [];
  try {
    for (const option of encoded) {
      signal?.throwIfAborted();
      const key = blindAudioKey(testId);
      const { size } = await storage.putFile(key, option.file, { contentType: 'audio/mpeg' });
      stored.push({ key, size, gainDb: option.gainDb, duration });
    }
  } catch (error) {
    await Promise.allSettled(stored.map((s) => storage.delete(s.key)));
    throw error;
  }
  return stored;
}
