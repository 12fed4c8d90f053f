import { frameDistance, frameTime, pooled, type Features } from './features';

// Lines up two versions of a track: dynamic time warping on frame features, first on blocks of
// POOL frames (about 0.37 s) over the whole of both, then on frames in a band around that coarse
// path; the frame path is reduced to a piecewise-linear time map (Douglas–Peucker), and the
// pieces too steep or too flat to be the same music played again are left out: they are
// material removed from, or inserted into, the other version.

const POOL = 8;
/** Frames either side of the coarse path the fine pass may move (about 1.1 s). */
const BAND = 24;
/** Coarse blocks either side of a coarse path cell whose rows the fine pass may also use. */
const SPREAD = 3;
/** The cost of each frame skipped at the start or the end (material only one version has). */
const SKIP = 1;
/** Pieces of the map shorter than this (s) are left out when there are longer ones. */
const MIN_PIECE = 0.75;
/** A piece shorter than this (s) between two jumps over one version's material is a crossing. */
const MIN_CROSSING = 2;
/** How far (s) before a jump the piece before it may be cut back, where the frames say so. */
const REACH_BACK = 2;
/** A gap between pieces that skips this much more (s) of one version than of the other is a jump. */
const MIN_JUMP = 0.5;
/** The cost of each frame jumped over inside the track (material only one version has). */
const JUMP = 0.9;
/** The cost of a step that holds one side still (not a diagonal). */
const STEP_PENALTY = 0.2;
/** How far (in frames) the piecewise-linear map may depart from the frame path. */
const TOLERANCE = 1;
/** Slopes of a piece that count as the same music (a tempo change within ±30 %). */
const MIN_SLOPE = 0.7;
const MAX_SLOPE = 1.4;

export interface AlignmentSegment {
  from_start: number;
  from_end: number;
  to_start: number;
  to_end: number;
}

export interface Alignment {
  confidence: number;
  segments: AlignmentSegment[];
}

type Point = readonly [number, number];

/** A piece of the map in frames: rows i0..i1 of `from` onto columns j0..j1 of `to`. */
export interface FramePiece {
  i0: number;
  i1: number;
  j0: number;
  j1: number;
}

const slopeOf = (piece: FramePiece) =>
  piece.i1 > piece.i0 ? (piece.j1 - piece.j0) / (piece.i1 - piece.i0) : 1;

/**
 * The running cost of following a piece's line `count` frames on from (i, j), forwards
 * (`direction` 1) or backwards (-1): entry t is the summed frame distance of the first t frames.
 */
function lineCosts(
  from: Features,
  to: Features,
  i: number,
  j: number,
  slope: number,
  count: number,
  direction: 1 | -1,
): Float64Array {
  const costs = new Float64Array(count + 1);
  for (let t = 1; t <= count; t++) {
    const row = i + direction * t;
    const column = Math.round(j + direction * t * slope);
    const inside = row >= 0 && row < from.frames && column >= 0 && column < to.frames;
    costs[t] = (costs[t - 1] ?? 0) + (inside ? frameDistance(from, row, to, column) : 3);
  }
  return costs;
}

/** Aligns `from` onto `to`: segments map times of `from` onto `to`, in seconds. */
export function alignFeatures(from: Features, to: Features): Alignment {
  const coarseFrom = pooled(from, POOL);
  const coarseTo = pooled(to, POOL);
  const full = () => [0, coarseTo.frames - 1] as const;
  const coarse = warp(coarseFrom, coarseTo, full);

  // The fine band: every frame row within BAND of the coarse path's columns for that row.
  const lo = new Int32Array(from.frames).fill(to.frames);
  const hi = new Int32Array(from.frames).fill(-1);
  for (const [ci, cj] of coarse.path) {
    // The coarse path's corners may be a block or two off: each of its cells also opens the rows
    // of the blocks around it.
    const first = Math.max(0, (ci - SPREAD) * POOL);
    for (let i = first; i < Math.min(from.frames, (ci + 1 + SPREAD) * POOL); i++) {
      lo[i] = Math.min(lo[i] ?? 0, Math.max(0, cj * POOL - BAND));
      hi[i] = Math.max(hi[i] ?? 0, Math.min(to.frames - 1, (cj + 1) * POOL - 1 + BAND));
    }
  }
  for (let i = from.frames - 2; i >= 0; i--) lo[i] = Math.min(lo[i] ?? 0, lo[i + 1] ?? 0);
  for (let i = 1; i < from.frames; i++) hi[i] = Math.max(hi[i] ?? 0, hi[i - 1] ?? 0);
  lo[0] = 0;
  hi[from.frames - 1] = to.frames - 1;
  const fine = warp(from, to, (i) => [lo[i] ?? 0, hi[i] ?? 0]);

  const corners = simplify(fine.path, TOLERANCE);
  const secondsPerFrame = frameTime(1) - frameTime(0);
  let pieces: FramePiece[] = [];
  let matchedFrames = 0;
  for (let p = 1; p < corners.length; p++) {
    const [i0, j0] = corners[p - 1] as Point;
    const [i1, j1] = corners[p] as Point;
    const di = i1 - i0;
    const dj = j1 - j0;
    if (di < 1 || dj / di < MIN_SLOPE || dj / di > MAX_SLOPE) continue;
    matchedFrames += di;
    pieces.push({ i0, i1, j0, j1 });
  }
  // A piece shorter than MIN_PIECE between others is the path crossing material one version
  // repeats (both copies are alike, so it touches each in passing): left out, the jump is whole.
  if (pieces.length > 1) {
    const kept = pieces.filter((piece) => (piece.i1 - piece.i0) * secondsPerFrame >= MIN_PIECE);
    if (kept.length > 0) pieces = kept;
  }
  pieces = withoutCrossings(pieces, secondsPerFrame);
  // Between two pieces the path often wanders a little before it jumps: what both versions still
  // share there (the smaller of the gaps) goes to the two pieces' lines, the piece before running
  // on and the piece after reaching back, split where the frames match best, so the jump itself
  // is only the material one version has (and lands where the music really differs, even when
  // it repeats, like a drum pattern).
  // The piece before may also have run on a little past the jump, over music that only sounds
  // like what follows it (a repeat's first bar like the bar after the repeat): the split is looked
  // for from up to REACH_BACK before its end.
  for (let k = 0; k + 1 < pieces.length; k++) {
    const current = pieces[k] as FramePiece;
    const next = pieces[k + 1] as FramePiece;
    const shared = Math.max(0, Math.min(next.i0 - current.i1, next.j0 - current.j1));
    const unequal = Math.abs(next.i0 - current.i1 - (next.j0 - current.j1)) * secondsPerFrame;
    if (unequal < 0.1) continue;
    const reach = Math.max(
      0,
      Math.min(
        Math.round(REACH_BACK / secondsPerFrame),
        Math.floor((current.i1 - current.i0) / 2),
        Math.floor((next.i1 - next.i0) / 2),
        next.i0 - shared,
        Math.floor((next.j0 - shared * slopeOf(next)) / slopeOf(next)),
      ),
    );
    const zone = shared + reach;
    if (zone <= 0) continue;
    const startI = current.i1 - reach;
    const startJ = current.j1 - reach * slopeOf(current);
    const before = lineCosts(from, to, startI, startJ, slopeOf(current), zone, 1);
    const after = lineCosts(from, to, next.i0, next.j0, slopeOf(next), zone, -1);
    let split = zone;
    for (let x = zone - 1; x >= 0; x--)
      if (
        (before[x] ?? 0) + (after[zone - x] ?? 0) <
        (before[split] ?? 0) + (after[zone - split] ?? 0)
      )
        split = x;
    const back = zone - split;
    current.j1 = startJ + split * slopeOf(current);
    current.i1 = startI + split;
    next.j0 -= back * slopeOf(next);
    next.i0 -= back;
  }
  const segments: AlignmentSegment[] = pieces.map((piece) => ({
    from_start: round(frameTime(piece.i0)),
    from_end: round(frameTime(piece.i1)),
    to_start: round(frameTime(piece.j0)),
    to_end: round(frameTime(piece.j1)),
  }));
  // Frame times are window centres: a map that starts (or ends) at the first (or last) frame of
  // either version reaches on to that version's edge.
  const head = segments[0];
  if (head) {
    const reach = Math.min(head.from_start, head.to_start, frameTime(0));
    head.from_start = round(head.from_start - reach);
    head.to_start = round(head.to_start - reach);
  }
  const tail = segments.at(-1);
  if (tail) {
    const reach = Math.min(
      frameTime(0),
      Math.max(0, frameTime(from.frames - 1) + frameTime(0) - tail.from_end),
      Math.max(0, frameTime(to.frames - 1) + frameTime(0) - tail.to_end),
    );
    tail.from_end = round(tail.from_end + reach);
    tail.to_end = round(tail.to_end + reach);
  }
  const similarity = Math.max(0, 1 - fine.cost / fine.path.length / 1.5);
  const coverage = matchedFrames / Math.max(1, from.frames - 1);
  return { confidence: round(similarity * (0.5 + 0.5 * coverage)), segments };
}

/**
 * Leaves out a piece shorter than MIN_CROSSING between two jumps over the same version's material
 * (both the gap before it and the gap after it skip material of `to`, or both of `from`): the
 * path crossing a long repeat where one bar of it sounds like a bar elsewhere (a chord
 * progression that comes round again). Two insertions of one side a few seconds apart with one
 * short stretch of shared music between them are not what an edit of a song does.
 */
export function withoutCrossings(pieces: FramePiece[], secondsPerFrame: number): FramePiece[] {
  const skips = (before: FramePiece, after: FramePiece) => {
    const from = (after.i0 - before.i1) * secondsPerFrame;
    const to = (after.j0 - before.j1) * secondsPerFrame;
    return to - from > MIN_JUMP ? 'to' : from - to > MIN_JUMP ? 'from' : null;
  };
  const kept: FramePiece[] = [];
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k] as FramePiece;
    const before = kept.at(-1);
    const after = pieces[k + 1];
    const short = (piece.i1 - piece.i0) * secondsPerFrame < MIN_CROSSING;
    if (before && after && short) {
      const side = skips(before, piece);
      if (side !== null && side === skips(piece, after)) continue;
    }
    kept.push(piece);
  }
  return kept;
}

/** The time of `to` that `time` of `from` maps to, or null where it has no counterpart. */
export function mapTime(segments: readonly AlignmentSegment[], time: number): number | null {
  for (const segment of segments) {
    if (time < segment.from_start || time > segment.from_end) continue;
    const span = segment.from_end - segment.from_start;
    const share = span === 0 ? 0 : (time - segment.from_start) / span;
    return segment.to_start + share * (segment.to_end - segment.to_start);
  }
  return null;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * DTW over the cells each row allows (`columns(i)`: an inclusive range, never moving back):
 * the cheapest monotonic path from (0, 0) to the last frames of both, and its total cost.
 */
function warp(
  a: Features,
  b: Features,
  columns: (i: number) => readonly [number, number],
): { path: Point[]; cost: number } {
  const rows = a.frames;
  const starts = new Int32Array(rows);
  const ends = new Int32Array(rows);
  const offsets = new Int32Array(rows + 1);
  for (let i = 0; i < rows; i++) {
    const [from, to] = columns(i);
    starts[i] = from;
    ends[i] = to;
    offsets[i + 1] = (offsets[i] ?? 0) + Math.max(0, to - from + 1);
  }
  const total = new Float32Array(offsets[rows] ?? 0).fill(Infinity);
  const step = new Uint8Array(offsets[rows] ?? 0);
  // Where a jump came from (the skipped-to row's or column's other index), for the way back.
  const jumpFrom = new Int32Array(offsets[rows] ?? 0);
  const at = (i: number, j: number): number => {
    if (i < 0 || j < (starts[i] ?? 0) || j > (ends[i] ?? -1)) return Infinity;
    return total[(offsets[i] ?? 0) + j - (starts[i] ?? 0)] ?? Infinity;
  };
  // Jumps over material only one version has: into (i, j) from (i - 1, j') with j' < j - 1 for
  // (j - 1 - j') * JUMP, or from (i', j - 1) with i' < i - 1 for (i - 1 - i') * JUMP. The best
  // origin is kept as `cost - index * JUMP` (per column for the rows gone by; per row as it goes).
  const columnBest = new Float64Array(b.frames).fill(Infinity);
  const columnFrom = new Int32Array(b.frames).fill(-1);
  for (let i = 0; i < rows; i++) {
    const base = (offsets[i] ?? 0) - (starts[i] ?? 0);
    if (i >= 2) {
      for (let j = starts[i - 2] ?? 0; j <= (ends[i - 2] ?? -1); j++) {
        const value = at(i - 2, j) - (i - 2) * JUMP;
        if (value < (columnBest[j] ?? Infinity)) [columnBest[j], columnFrom[j]] = [value, i - 2];
      }
    }
    let rowBest = Infinity;
    let rowFrom = -1;
    const consider = (column: number) => {
      const value = at(i - 1, column) - column * JUMP;
      if (value < rowBest) [rowBest, rowFrom] = [value, column];
    };
    if (i >= 1)
      for (let column = starts[i - 1] ?? 0; column <= (starts[i] ?? 0) - 3; column++)
        consider(column);
    for (let j = starts[i] ?? 0; j <= (ends[i] ?? -1); j++) {
      const d = frameDistance(a, i, b, j);
      if (i >= 1 && j >= 2) consider(j - 2);
      const rowRun = rowBest + (j - 1) * JUMP;
      const columnRun = j >= 1 ? (columnBest[j - 1] ?? Infinity) + (i - 1) * JUMP : Infinity;
      // Either version may start with material the other has not (an intro cut, a count-in):
      // the path may begin anywhere on the first row or column, for SKIP a frame skipped.
      if (i === 0 || j === 0) {
        const skipped = (i + j) * SKIP;
        const before = i === 0 ? Infinity : Math.min(at(i - 1, j) + STEP_PENALTY, Infinity);
        total[base + j] = d + Math.min(skipped, before);
        step[base + j] = skipped <= before ? 3 : 1;
        continue;
      }
      const diagonal = at(i - 1, j - 1);
      const holdB = at(i - 1, j) + STEP_PENALTY;
      const holdA =
        j > (starts[i] ?? 0) ? (total[base + j - 1] ?? Infinity) + STEP_PENALTY : Infinity;
      let best = diagonal;
      let kind = 0;
      if (holdB < best) {
        best = holdB;
        kind = 1;
      }
      if (holdA < best) {
        best = holdA;
        kind = 2;
      }
      // Jumps: over columns (material only `b` has) or over rows (material only `a` has).
      if (rowRun < best) {
        best = rowRun;
        kind = 4;
        jumpFrom[base + j] = rowFrom;
      }
      if (columnRun < best) {
        best = columnRun;
        kind = 5;
        jumpFrom[base + j] = columnFrom[j - 1] ?? 0;
      }
      total[base + j] = d + best;
      step[base + j] = kind;
    }
  }
  // And either may end with material the other has not: the cheapest end on the last row or
  // column, for SKIP a frame left over.
  let i = rows - 1;
  let j = b.frames - 1;
  let cost = at(i, j);
  for (let column = starts[rows - 1] ?? 0; column <= (ends[rows - 1] ?? -1); column++) {
    const ending = at(rows - 1, column) + (b.frames - 1 - column) * SKIP;
    if (ending < cost) [cost, i, j] = [ending, rows - 1, column];
  }
  for (let row = 0; row < rows; row++) {
    if ((ends[row] ?? -1) !== b.frames - 1) continue;
    const ending = at(row, b.frames - 1) + (rows - 1 - row) * SKIP;
    if (ending < cost) [cost, i, j] = [ending, row, b.frames - 1];
  }
  const path: Point[] = [];
  for (;;) {
    path.push([i, j]);
    const cell = (offsets[i] ?? 0) + j - (starts[i] ?? 0);
    const kind = step[cell];
    if (kind === 3) break;
    if (kind === 4) {
      i -= 1;
      j = jumpFrom[cell] ?? 0;
    } else if (kind === 5) {
      i = jumpFrom[cell] ?? 0;
      j -= 1;
    } else if (kind === 0) {
      i -= 1;
      j -= 1;
    } else if (kind === 1) i -= 1;
    else j -= 1;
    if (i < 0 || j < 0) break;
  }
  path.reverse();
  return { path, cost: Number.isFinite(cost) ? cost : path.length * 3 };
}

/** Douglas–Peucker: the path's corners, so that no point is further than `tolerance` from it. */
function simplify(path: Point[], tolerance: number): Point[] {
  if (path.length <= 2) return path;
  const keep = new Uint8Array(path.length);
  keep[0] = 1;
  keep[path.length - 1] = 1;
  const stack: [number, number][] = [[0, path.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop() as [number, number];
    const [x0, y0] = path[first] as Point;
    const [x1, y1] = path[last] as Point;
    const length = Math.hypot(x1 - x0, y1 - y0) || 1;
    let worst = -1;
    let worstDistance = tolerance;
    for (let k = first + 1; k < last; k++) {
      const [x, y] = path[k] as Point;
      const distance = Math.abs((y1 - y0) * x - (x1 - x0) * y + x1 * y0 - y1 * x0) / length;
      if (distance > worstDistance) {
        worstDistance = distance;
        worst = k;
      }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push([first, worst], [worst, last]);
  }
  return path.filter((_, k) => keep[k] === 1);
}
