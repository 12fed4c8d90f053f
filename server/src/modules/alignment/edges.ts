// Where a changed region begins and ends: the frames above the change threshold, reaching on over
// the neighbouring frames whose difference only fades (see withEdges).

/** A frame whose difference is above this (dB relative to its signal) has changed. */
export const CHANGE_THRESHOLD_DB = -22;
/** A changed region reaches on over neighbouring frames above this (dB; see withEdges). */
const EDGE_THRESHOLD_DB = -32;
/** … but only over frames this far above the pair's median frame (dB). */
const FLOOR_MARGIN_DB = 6;
/**
 * … and over a dip of at most this many frames below it when the frames after the dip are above
 * it again (a note's end between a ridden held note and the next changed frames).
 */
const BRIDGE_FRAMES = 2;
/** … held for at least this many frames past the dip (a stray frame is not a held note). */
const BRIDGE_HELD_FRAMES = 4;
/** The value `share` of the way up the sorted values (0.5: the median). */
export function percentile(values: ArrayLike<number>, share: number): number {
  const sorted = Array.from(values).sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

/**
 * The frames that changed: those above the threshold, and (hysteresis) the frames either side
 * of them that stay above EDGE_THRESHOLD_DB, so a region's edges are where its difference fades
 * rather than where a partly changed frame first clears the threshold (a ride's first frames, a
 * quiet note under a ridden one). Never below the pair's own floor (the median compared frame,
 * plus a margin): two encodes of the same mix do not spread a region over what merely differs
 * by encoding. A dip of up to BRIDGE_FRAMES below it is crossed when the frames past it are
 * above it again.
 */
export function withEdges(levels: Float32Array): Uint8Array {
  const compared = Array.from(levels).filter((level) => Number.isFinite(level));
  // The median frame is the pair's floor when it is itself unchanged. Where more than half the
  // frames changed (an EQ of the whole mix) the median is the change, not a floor, and the edge
  // threshold alone applies.
  const median = compared.length > 0 ? percentile(compared, 0.5) : CHANGE_THRESHOLD_DB;
  const floor = median <= CHANGE_THRESHOLD_DB ? median : -Infinity;
  const low = Math.min(CHANGE_THRESHOLD_DB, Math.max(EDGE_THRESHOLD_DB, floor + FLOOR_MARGIN_DB));
  const changed = new Uint8Array(levels.length);
  for (let i = 0; i < levels.length; i++)
    if ((levels[i] ?? -Infinity) > CHANGE_THRESHOLD_DB) changed[i] = 1;
  /** Whether the frames from `at` on (either way) hold above the edge threshold for a while. */
  const above = (at: number) => at >= 0 && at < levels.length && (levels[at] ?? -Infinity) > low;
  // Both ways along the frames; a frame not compared (silent on both sides) passes the reach on.
  for (const [first, step] of [
    [0, 1],
    [levels.length - 1, -1],
  ] as const) {
    const heldFrom = (at: number) => {
      for (let k = 0; k < BRIDGE_HELD_FRAMES; k++) if (!above(at + k * step)) return false;
      return true;
    };
    let reaching = false;
    for (let i = first; i >= 0 && i < levels.length; i += step) {
      const level = levels[i] ?? -Infinity;
      if (changed[i] === 1) reaching = true;
      else if (reaching && level > low) changed[i] = 1;
      else if (reaching && Number.isFinite(level)) {
        // A short dip: bridged when a frame just past it reaches over the edge threshold again.
        let over = -1;
        for (let k = 1; k <= BRIDGE_FRAMES && over < 0; k++)
          if (heldFrom(i + k * step)) over = i + k * step;
        if (over >= 0) i = over - step;
        else reaching = false;
      }
    }
  }
  return changed;
}
