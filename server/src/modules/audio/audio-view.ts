import type { BounceWaveform } from '@takes/contract';
import type { ProcessedAudioColumns } from '../../db/schema';

/** A stored rendition; `sha256` of its bytes (its ETag) is absent on rows processed before it existed. */
export interface RenditionFile {
  key: string;
  size: number;
  sha256?: string;
}

export interface Renditions {
  high?: RenditionFile;
  standard?: RenditionFile;
  /**
   * The FLAC of a lossless original (same samples, rate, depth and channels). `null`: looked at
   * and none can be made (a lossy or floating-point original); absent: not looked at yet (rows
   * processed before it existed, which the backfill job visits).
   */
  lossless?: RenditionFile | null;
}

export interface WaveformInfo {
  overview: number[];
  /** Up to 1000 min/max points (absent on rows processed before it existed). */
  overviewMinMax?: { min: number[]; max: number[] };
  duration: number | null;
  peaksKey: string;
  peaksPerSecond: number;
}

/** Processing columns hold JSON text; a missing or broken value reads as the fallback. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return (JSON.parse(text) as T | null) ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * How long the audio is (seconds), from the first of the stored JSON columns (metadata, then
 * waveform) that says: null when none does (not yet processed or probed, or unreadable).
 */
export function storedDuration(...columns: (string | null | undefined)[]): number | null {
  for (const text of columns) {
    const duration = parseJson<{ duration?: unknown }>(text, {}).duration;
    if (typeof duration === 'number' && Number.isFinite(duration) && duration > 0) return duration;
  }
  return null;
}

/** Loudness as the processing stored it (the measurement's own names). */
interface StoredLoudness {
  integratedLufs?: number | null;
  loudnessRange?: number | null;
  truePeakDbfs?: number | null;
}

/** A stored loudness measurement in the API's names, or null when none was made. */
export function loudnessView(text: string | null): {
  integrated_lufs: number | null;
  loudness_range: number | null;
  true_peak_dbfs: number | null;
} | null {
  const stored = parseJson<StoredLoudness | null>(text, null);
  if (!stored) return null;
  return {
    integrated_lufs: stored.integratedLufs ?? null,
    loudness_range: stored.loudnessRange ?? null,
    true_peak_dbfs: stored.truePeakDbfs ?? null,
  };
}

/**
 * The waveform and length of a processed row (a version or a bounce), read once here so every
 * view agrees: the probed duration wins, the decoded one stands in until it exists.
 */
export function audioView(row: Pick<ProcessedAudioColumns, 'metadata' | 'waveform'>): {
  waveform: WaveformInfo | null;
  duration: number | null;
} {
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  const metadata = parseJson<{ duration?: number | null } | null>(row.metadata, null);
  return { waveform, duration: metadata?.duration ?? waveform?.duration ?? null };
}

/** The overview as min/max arrays (older rows only have absolute peaks: mirrored). */
export function waveformJson(
  waveform: WaveformInfo | null,
  duration: number | null,
): BounceWaveform | null {
  if (!waveform) return null;
  const length = waveform.duration ?? duration ?? 0;
  if (waveform.overviewMinMax) return { ...waveform.overviewMinMax, duration: length };
  return {
    min: waveform.overview.map((p) => -p),
    max: waveform.overview,
    duration: length,
  };
}

/**
 * The same waveform with at most `points` min/max pairs (each the extreme of its bucket): what a
 * card needs, a fraction of the bytes (the stored overview has 1,000).
 */
export function downsampled(waveform: BounceWaveform, points: number): BounceWaveform {
  const length = Math.min(waveform.min.length, waveform.max.length);
  if (length <= points) return waveform;
  const min: number[] = [];
  const max: number[] = [];
  for (let i = 0; i < points; i++) {
    const from = Math.floor((i * length) / points);
    const to = Math.floor(((i + 1) * length) / points);
    let low = Infinity;
    let high = -Infinity;
    for (let k = from; k < to; k++) {
      low = Math.min(low, waveform.min[k] ?? 0);
      high = Math.max(high, waveform.max[k] ?? 0);
    }
    min.push(low);
    max.push(high);
  }
  return { min, max, duration: waveform.duration };
}

/** Keys only this row owns (renditions, peaks); the original may be shared. */
export function ownedAudioKeys(
  row: Pick<ProcessedAudioColumns, 'renditions' | 'waveform'>,
): string[] {
  const renditions = parseJson<Renditions>(row.renditions, {});
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  return [
    renditions.high?.key,
    renditions.standard?.key,
    renditions.lossless?.key,
    waveform?.peaksKey,
  ].filter((k): k is string => !!k);
}
