import FFT from 'fft.js';
import { mapTime, type AlignmentSegment } from './align';
import { CHANGE_THRESHOLD_DB, percentile, withEdges } from './edges';

export { CHANGE_THRESHOLD_DB } from './edges';

// What changed between two aligned versions: a null test in the spectrum. Each frame of A is set
// against B's audio at the time the alignment maps it to (the best of the nearby frames, since
// the map is only as fine as its frames); both are reduced to third-octave band levels, B is
// matched in loudness to A (one gain for the whole track), and what would be left if B were
// subtracted from A, band by band, is measured against A's own level. Comparing magnitudes
// rather than samples keeps a different dither, encoding or a sub-millisecond offset from
// counting as a change, while a 1.5 dB ride of one element still shows. The FFT is fft.js.

/** The rate both versions are decoded to for the comparison (bands up to 10 kHz). */
export const CHANGES_SAMPLE_RATE = 22_050;
const WINDOW = 4096;
/** A's frames: about 93 ms apart. */
const HOP_A = 2048;
/** B's frames, finer, so each frame of A finds B's within about 6 ms. */
const HOP_B = 256;
/** The finer steps (samples, about 1.5 ms) B's window moves around its best frame. */
const FINE_STEP = 32;
/** How far (in B's frames, about ±93 ms) around the mapped time to look for B's frame. */
const SEARCH = 8;
/** Frames this far below the track's loud frames are silence on both sides: not compared. */
const SILENCE_DB = -50;
/** Changed frames closer than this merge into one region (seconds). */
const MERGE_GAP = 1;
/** Regions shorter than this are left out (a single stray frame). */
const MIN_REGION = 0.25;

export interface ChangedRegion {
  start: number;
  end: number;
  /** The difference's level relative to the signal (dB); 0 for inserted material. */
  level_db: number;
  /** Material with no counterpart in the other version (inserted). */
  inserted: boolean;
}

export interface Changes {
  threshold_db: number;
  regions: ChangedRegion[];
}

interface BandFrames {
  frames: number;
  hop: number;
  bands: number;
  /** Energy per frame and band. */
  energy: Float32Array;
  /** Total energy per frame (dB). */
  levelDb: Float32Array;
}

const BAND_EDGES = (() => {
  const edges: number[] = [];
  for (let hz = 50; hz < 10_000; hz *= 2 ** (1 / 3)) edges.push(hz);
  edges.push(10_000);
  return edges;
})();

/** One frame's band energies at any sample position (for the fine search). */
class FrameAnalyser {
  private readonly fft = new FFT(WINDOW);
  private readonly window = new Float32Array(WINDOW);
  private readonly input = new Array<number>(WINDOW).fill(0);
  private readonly out: number[];
  readonly bandOf = new Int16Array(WINDOW / 2).fill(-1);
  readonly bands = BAND_EDGES.length - 1;
  constructor() {
    this.out = this.fft.createComplexArray() as number[];
    for (let n = 0; n < WINDOW; n++)
      this.window[n] = 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / WINDOW);
    for (let k = 1; k < WINDOW / 2; k++) {
      const hz = (k * CHANGES_SAMPLE_RATE) / WINDOW;
      for (let b = 0; b < this.bands; b++)
        if (hz >= (BAND_EDGES[b] ?? 0) && hz < (BAND_EDGES[b + 1] ?? 0)) this.bandOf[k] = b;
    }
  }

  /** Band energies of the window starting at `start` into `into` (at `offset`); total energy. */
  analyse(samples: Float32Array, start: number, into: Float32Array, offset: number): number {
    for (let n = 0; n < WINDOW; n++)
      this.input[n] = (samples[start + n] ?? 0) * (this.window[n] ?? 0);
    this.fft.realTransform(this.out, this.input);
    for (let b = 0; b < this.bands; b++) into[offset + b] = 0;
    let total = 0;
    for (let k = 1; k < WINDOW / 2; k++) {
      const b = this.bandOf[k] ?? -1;
      if (b < 0) continue;
      const power = (this.out[2 * k] ?? 0) ** 2 + (this.out[2 * k + 1] ?? 0) ** 2;
      into[offset + b] = (into[offset + b] ?? 0) + power;
      total += power;
    }
    return total;
  }
}

/** Lets the event loop run between slices of the work (a few milliseconds each). */
const breather = () => new Promise<void>((resolve) => setImmediate(resolve));
const SLICE_FRAMES = 128;

async function bandFrames(
  samples: Float32Array,
  hop: number,
  analyser: FrameAnalyser,
): Promise<BandFrames> {
  const frames = Math.max(1, Math.floor(Math.max(0, samples.length - WINDOW) / hop) + 1);
  const bands = analyser.bands;
  const energy = new Float32Array(frames * bands);
  const levelDb = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    levelDb[f] = 10 * Math.log10(analyser.analyse(samples, f * hop, energy, f * bands) + 1e-12);
    if (f % SLICE_FRAMES === SLICE_FRAMES - 1) await breather();
  }
  return { frames, hop, bands, energy, levelDb };
}

const timeOf = (frame: number, hop: number) => (frame * hop + WINDOW / 2) / CHANGES_SAMPLE_RATE;
const frameAt = (time: number, hop: number) =>
  Math.round((time * CHANGES_SAMPLE_RATE - WINDOW / 2) / hop);

/** The residual's share of A's band energies, with B's (at `bAt`) scaled by `gain`. */
function residual(
  a: Float32Array,
  aAt: number,
  b: Float32Array,
  bAt: number,
  bands: number,
  gain: number,
): number {
  let left = 0;
  let total = 0;
  for (let band = 0; band < bands; band++) {
    const ea = a[aAt + band] ?? 0;
    const eb = (b[bAt + band] ?? 0) * gain;
    left += (Math.sqrt(ea) - Math.sqrt(eb)) ** 2;
    total += ea;
  }
  return total > 0 ? left / total : 0;
}

/** B's frames either side of the best match that a frame above the threshold tries again. */
const RESEARCH = 2;
/** How far past a piece of the map a frame is still tried at the piece's extension (s). */
const EDGE_REACH = 0.1;

/** Where `time` would map by the nearest piece's line, when it is within EDGE_REACH of it. */
function extendedTime(segments: readonly AlignmentSegment[], time: number): number | null {
  let best: { gap: number; segment: AlignmentSegment } | null = null;
  for (const segment of segments) {
    const gap = time < segment.from_start ? segment.from_start - time : time - segment.from_end;
    if (gap > 0 && gap <= EDGE_REACH && (!best || gap < best.gap)) best = { gap, segment };
  }
  if (!best) return null;
  const { segment } = best;
  const span = segment.from_end - segment.from_start;
  const slope = span > 0 ? (segment.to_end - segment.to_start) / span : 1;
  return segment.to_start + (time - segment.from_start) * slope;
}

/** How alike two frames' spectra are, whatever their levels: cosine of the band magnitudes. */
function likeness(
  a: Float32Array,
  aAt: number,
  b: Float32Array,
  bAt: number,
  bands: number,
): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let band = 0; band < bands; band++) {
    const x = Math.sqrt(a[aAt + band] ?? 0);
    const y = Math.sqrt(b[bAt + band] ?? 0);
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa > 0 && bb > 0 ? dot / Math.sqrt(aa * bb) : 0;
}

/**
 * Where `a` differs from `b`, on a's timeline: `segments` map times of a onto b (the alignment).
 * Both are mono samples at CHANGES_SAMPLE_RATE. It takes seconds of CPU for long versions, in
 * slices that let a server running the job keep answering requests.
 */
export async function changedRegions(
  a: Float32Array,
  b: Float32Array,
  segments: readonly AlignmentSegment[],
): Promise<Changes> {
  const analyser = new FrameAnalyser();
  const fa = await bandFrames(a, HOP_A, analyser);
  const fb = await bandFrames(b, HOP_B, analyser);
  const fine = new Float32Array(fa.bands);
  const loudA = percentile(fa.levelDb, 0.95);
  const loudB = percentile(fb.levelDb, 0.95);
  const mapped = new Int32Array(fa.frames).fill(-1);
  // Frames just outside the map's pieces (the map is only as fine as its 46 ms frames): tried at
  // the nearest piece's extension, and kept as inserted only when they do not null there.
  const extended = new Uint8Array(fa.frames);
  const durationB = b.length / CHANGES_SAMPLE_RATE;
  for (let i = 0; i < fa.frames; i++) {
    const time = timeOf(i, HOP_A);
    let t = mapTime(segments, time);
    if (t === null) {
      t = extendedTime(segments, time);
      if (t !== null && t >= 0 && t <= durationB) extended[i] = 1;
      else t = null;
    }
    if (t !== null) mapped[i] = Math.max(0, Math.min(fb.frames - 1, frameAt(t, HOP_B)));
  }
  // First B's window that matches each frame of A best (by the shape of the spectrum, which a
  // change of level does not move): the nearest of B's frames, then B's window moved in finer
  // steps around it, since a few milliseconds off is enough to make a drum hit look different.
  const levels = new Float32Array(fa.frames).fill(Number.NEGATIVE_INFINITY);
  const inserted = new Uint8Array(fa.frames);
  const matched = new Float32Array(fa.frames * fa.bands);
  const matchedLevel = new Float32Array(fa.frames).fill(Number.NaN);
  const nearest = new Int32Array(fa.frames);
  /**
   * The lowest `score` of B's window at frame `j` and moved around it in FINE_STEP steps (a few
   * milliseconds off is enough to make a drum hit look different): the score and where it is.
   */
  const nearFrame = (score: (energy: Float32Array, at: number) => number, j: number) => {
    let best = { score: score(fb.energy, j * fb.bands), at: j * HOP_B };
    for (let step = -HOP_B / 2; step <= HOP_B / 2; step += FINE_STEP) {
      if (step === 0) continue;
      const at = Math.max(0, j * HOP_B + step);
      analyser.analyse(b, at, fine, 0);
      const scored = score(fine, 0);
      if (scored < best.score) best = { score: scored, at };
    }
    return best;
  };
  for (let i = 0; i < fa.frames; i++) {
    if (i % (SLICE_FRAMES / 8) === 0) await breather();
    const silentA = (fa.levelDb[i] ?? 0) < loudA + SILENCE_DB;
    const j0 = mapped[i] ?? -1;
    if (j0 < 0 || (extended[i] === 1 && silentA)) {
      if (!silentA) inserted[i] = 1;
      continue;
    }
    // Silent on both sides (B anywhere near the mapped time, as the map is only so fine).
    let silentB = false;
    for (let j = Math.max(0, j0 - SEARCH); j <= Math.min(fb.frames - 1, j0 + SEARCH); j++)
      if ((fb.levelDb[j] ?? 0) < loudB + SILENCE_DB) silentB = true;
    if (silentA && silentB) continue;
    if (silentA) {
      // Something plays in B where A is silent.
      levels[i] = 0;
      continue;
    }
    let best = Number.NEGATIVE_INFINITY;
    let bestJ = j0;
    for (let j = Math.max(0, j0 - SEARCH); j <= Math.min(fb.frames - 1, j0 + SEARCH); j++) {
      const alike = likeness(fa.energy, i * fa.bands, fb.energy, j * fb.bands, fa.bands);
      if (alike > best) [best, bestJ] = [alike, j];
    }
    const { at: bestAt } = nearFrame(
      (energy, at) => -likeness(fa.energy, i * fa.bands, energy, at, fa.bands),
      bestJ,
    );
    const total = analyser.analyse(b, bestAt, matched, i * fa.bands);
    nearest[i] = bestJ;
    matchedLevel[i] = 10 * Math.log10(total + 1e-12);
  }

  // Loudness matching: one gain for the whole of B, the median of the loud frames' level ratios.
  const ratios: number[] = [];
  for (let i = 0; i < fa.frames; i++) {
    const level = matchedLevel[i] ?? Number.NaN;
    if (Number.isNaN(level) || extended[i] === 1) continue;
    if ((fa.levelDb[i] ?? 0) < loudA + SILENCE_DB / 2) continue;
    ratios.push((fa.levelDb[i] ?? 0) - level);
  }
  const gain = 10 ** ((ratios.length > 0 ? percentile(ratios, 0.5) : 0) / 10);
  for (let i = 0; i < fa.frames; i++) {
    if (Number.isNaN(matchedLevel[i] ?? Number.NaN)) continue;
    let left = residual(fa.energy, i * fa.bands, matched, i * fa.bands, fa.bands, gain);
    // Above the threshold: look again for B's window, now by what is left after the subtraction
    // (the spectrum's shape alone can prefer a window that holds more of a drum hit).
    // Around the best match and around the mapped time itself (a drum pattern can offer a
    // likelier-looking hit a beat away).
    if (10 * Math.log10(left + 1e-12) > CHANGE_THRESHOLD_DB) {
      const centres = new Set([nearest[i] ?? 0, mapped[i] ?? 0]);
      const tried = new Set<number>();
      for (const j0 of centres)
        for (let j = Math.max(0, j0 - RESEARCH); j <= Math.min(fb.frames - 1, j0 + RESEARCH); j++) {
          if (tried.has(j)) continue;
          tried.add(j);
          const { score } = nearFrame(
            (energy, at) => residual(fa.energy, i * fa.bands, energy, at, fa.bands, gain),
            j,
          );
          left = Math.min(left, score);
        }
    }
    const level = 10 * Math.log10(left + 1e-12);
    if (extended[i] === 1 && level > CHANGE_THRESHOLD_DB) inserted[i] = 1;
    else levels[i] = level;
  }

  const regions: ChangedRegion[] = [];
  const collect = (isOn: (i: number) => boolean, level: (i: number) => number, insert: boolean) => {
    let open: ChangedRegion | null = null;
    for (let i = 0; i < fa.frames; i++) {
      if (!isOn(i)) continue;
      const start = timeOf(i, HOP_A) - HOP_A / 2 / CHANGES_SAMPLE_RATE;
      const end = timeOf(i, HOP_A) + HOP_A / 2 / CHANGES_SAMPLE_RATE;
      if (open && start - open.end <= MERGE_GAP) {
        open.end = end;
        open.level_db = Math.max(open.level_db, level(i));
      } else {
        if (open) regions.push(open);
        open = { start, end, level_db: level(i), inserted: insert };
      }
    }
    if (open) regions.push(open);
  };
  const changed = withEdges(levels);
  collect(
    (i) => changed[i] === 1,
    (i) => levels[i] ?? 0,
    false,
  );
  collect(
    (i) => inserted[i] === 1,
    () => 0,
    true,
  );
  const duration = a.length / CHANGES_SAMPLE_RATE;
  return {
    threshold_db: CHANGE_THRESHOLD_DB,
    regions: regions
      .filter((r) => r.end - r.start >= MIN_REGION)
      .map((r) => ({
        start: round(Math.max(0, r.start)),
        end: round(Math.min(duration, r.end)),
        level_db: Math.round(r.level_db * 10) / 10,
        inserted: r.inserted,
      }))
      .sort((x, y) => x.start - y.start),
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
