import FFT from 'fft.js';

// Frame features of a mono signal for alignment: a chroma vector (the 12 pitch classes, unit
// length), an onset strength (half-wave rectified log-spectral flux) and the frame's level
// relative to the track's loud frames. Chroma and flux are gain-invariant, so a louder or
// re-equalised version lines up with its original. The FFT is fft.js (radix-4, real input).

/** The rate alignment decodes to: enough for chroma up to 4 kHz and onsets. */
export const ALIGN_SAMPLE_RATE = 11_025;
/** Samples between frames: about 46 ms. */
export const HOP = 512;
/** Analysis window (Hann): about 186 ms, so low notes separate into pitch classes. */
const WINDOW = 2048;
const CHROMA_LOW_HZ = 55;
const CHROMA_HIGH_HZ = 4000;
/** Frames this far below the track's loud frames are silence: their chroma is left empty. */
const SILENCE_DB = -50;

export interface Features {
  frames: number;
  /** 12 values per frame, unit length (or all zero for silence). */
  chroma: Float32Array;
  /** Onset strength per frame, scaled so the track's 95th percentile is 1 (then clipped at 2). */
  onset: Float32Array;
  /** Level per frame in dB relative to the track's 95th percentile frame, floored at -60. */
  level: Float32Array;
}

/** Seconds of frame `index` (its window's centre). */
export function frameTime(index: number): number {
  return (index * HOP + WINDOW / 2) / ALIGN_SAMPLE_RATE;
}

export function featuresOf(samples: Float32Array): Features {
  const frames = Math.max(1, Math.floor(Math.max(0, samples.length - WINDOW) / HOP) + 1);
  const fft = new FFT(WINDOW);
  const window = new Float32Array(WINDOW);
  for (let n = 0; n < WINDOW; n++) window[n] = 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / WINDOW);
  const bins = WINDOW / 2;
  const pitchClass = new Int8Array(bins).fill(-1);
  for (let k = 1; k < bins; k++) {
    const hz = (k * ALIGN_SAMPLE_RATE) / WINDOW;
    if (hz < CHROMA_LOW_HZ || hz > CHROMA_HIGH_HZ) continue;
    const midi = Math.round(12 * Math.log2(hz / 440) + 69);
    pitchClass[k] = ((midi % 12) + 12) % 12;
  }

  // The level of each frame first (Parseval: the windowed frame's energy), so the one FFT pass
  // knows what counts as silence and where the log spectrum's floor is.
  const levelDb = new Array<number>(frames);
  for (let f = 0; f < frames; f++) {
    const start = f * HOP;
    let energy = 0;
    for (let n = 0; n < WINDOW; n++) energy += ((samples[start + n] ?? 0) * (window[n] ?? 0)) ** 2;
    levelDb[f] = 10 * Math.log10(energy * WINDOW + 1e-12);
  }
  const loud = percentile(levelDb, 0.95);
  const level = new Float32Array(frames);
  for (let f = 0; f < frames; f++) level[f] = Math.max(-60, (levelDb[f] ?? 0) - loud);

  // A floor relative to the loud frames keeps the log spectrum's differences gain-invariant.
  const floor = Math.sqrt(10 ** (loud / 10) / bins) * 1e-3;
  const input = new Array<number>(WINDOW).fill(0);
  const out = fft.createComplexArray() as number[];
  const chroma = new Float32Array(frames * 12);
  const flux = new Float64Array(frames);
  let previous = new Float32Array(bins);
  let current = new Float32Array(bins);
  for (let f = 0; f < frames; f++) {
    const start = f * HOP;
    for (let n = 0; n < WINDOW; n++) input[n] = (samples[start + n] ?? 0) * (window[n] ?? 0);
    fft.realTransform(out, input);
    const sounding = (level[f] ?? -60) > SILENCE_DB;
    let rise = 0;
    for (let k = 0; k < bins; k++) {
      const re = out[2 * k] ?? 0;
      const im = out[2 * k + 1] ?? 0;
      const squared = re * re + im * im;
      const logMagnitude = Math.log(Math.sqrt(squared) + floor);
      current[k] = logMagnitude;
      const difference = logMagnitude - (previous[k] ?? 0);
      if (difference > 0) rise += difference;
      const pc = pitchClass[k] ?? -1;
      if (pc >= 0 && sounding) chroma[f * 12 + pc] = (chroma[f * 12 + pc] ?? 0) + squared;
    }
    flux[f] = f === 0 ? 0 : rise;
    [previous, current] = [current, previous];
    normalise(chroma, f * 12);
  }
  const fluxScale = percentile(Array.from(flux), 0.95) || 1;
  const onset = new Float32Array(frames);
  for (let f = 0; f < frames; f++) onset[f] = Math.min(2, (flux[f] ?? 0) / fluxScale);
  return { frames, chroma, onset, level };
}

function normalise(vectors: Float32Array, offset: number): void {
  let sum = 0;
  for (let c = 0; c < 12; c++) sum += (vectors[offset + c] ?? 0) ** 2;
  if (sum <= 0) return;
  const scale = 1 / Math.sqrt(sum);
  for (let c = 0; c < 12; c++) vectors[offset + c] = (vectors[offset + c] ?? 0) * scale;
}

function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/**
 * The features averaged over blocks of `size` frames (for the coarse pass): chroma summed and
 * normalised again, onset and level averaged.
 */
export function pooled(features: Features, size: number): Features {
  const frames = Math.max(1, Math.ceil(features.frames / size));
  const chroma = new Float32Array(frames * 12);
  const onset = new Float32Array(frames);
  const level = new Float32Array(frames);
  for (let b = 0; b < frames; b++) {
    const from = b * size;
    const to = Math.min(features.frames, from + size);
    for (let f = from; f < to; f++) {
      for (let c = 0; c < 12; c++)
        chroma[b * 12 + c] = (chroma[b * 12 + c] ?? 0) + (features.chroma[f * 12 + c] ?? 0);
      onset[b] = (onset[b] ?? 0) + (features.onset[f] ?? 0) / (to - from);
      level[b] = (level[b] ?? 0) + (features.level[f] ?? 0) / (to - from);
    }
    normalise(chroma, b * 12);
  }
  return { frames, chroma, onset, level };
}

/** How unlike frame `i` of `a` is frame `j` of `b`: 0 the same, about 3 at most. */
export function frameDistance(a: Features, i: number, b: Features, j: number): number {
  let dot = 0;
  let aSum = 0;
  let bSum = 0;
  for (let c = 0; c < 12; c++) {
    const x = a.chroma[i * 12 + c] ?? 0;
    const y = b.chroma[j * 12 + c] ?? 0;
    dot += x * y;
    aSum += x;
    bSum += y;
  }
  // Two silent frames are alike; silence against sound is half unlike.
  const chromaDistance = aSum === 0 && bSum === 0 ? 0 : aSum === 0 || bSum === 0 ? 0.5 : 1 - dot;
  const onsetDistance = Math.abs((a.onset[i] ?? 0) - (b.onset[j] ?? 0));
  const levelDistance = Math.min(1, Math.abs((a.level[i] ?? 0) - (b.level[j] ?? 0)) / 20);
  return chromaDistance + onsetDistance + levelDistance;
}
