import { describe, expect, it } from 'vitest';
import { CHANGE_THRESHOLD_DB, withEdges } from './edges';

const on = (levels: number[]) => Array.from(withEdges(Float32Array.from(levels)));

// A changed region's edges: frames above the threshold (−22 dB), and the frames either side that
// stay above the edge threshold (−32 dB) or, when the pair has a floor (its median frame is
// unchanged), above that floor + 6 dB.
describe('withEdges', () => {
  it('reaches over fading frames down to −32 dB when the pair is otherwise quiet', () => {
    const quiet = Array<number>(20).fill(-45);
    expect(on([...quiet, -30, -28, -15, -29, -31, -40, ...quiet]).slice(20, 26)).toEqual([
      1, 1, 1, 1, 1, 0,
    ]);
  });

  it('stops at the floor of a pair that differs everywhere a little (two encodes)', () => {
    const encoded = Array<number>(20).fill(-28);
    expect(on([...encoded, -25, -15, -25, ...encoded]).slice(20, 23)).toEqual([0, 1, 0]);
  });

  it('has no floor where most frames changed (an EQ of the whole mix): the ending is kept', () => {
    // The held-out drums' EQ: a hi-hat at the end changed by −23.9 and −22.1 dB in magnitude.
    const eq = Array<number>(40).fill(-14);
    const levels = [...eq, -26.5, -20, -14, -Infinity, -16, -23.9, -22.1];
    expect(Math.min(...levels.slice(-2))).toBeLessThan(CHANGE_THRESHOLD_DB);
    expect(on(levels).slice(-2)).toEqual([1, 1]);
  });

  it('crosses a dip of two frames when the frames past it are above the edge threshold again', () => {
    // The second held-out melody's ride: a held note at −25.7 dB, its end (−32.7, −41), then the
    // next note above the threshold.
    const quiet = Array<number>(20).fill(-120);
    const held = Array<number>(6).fill(-25.7);
    const levels = [...quiet, ...held, -30.2, -32.7, -41, -18.1, ...quiet];
    expect(on(levels).slice(20, 30)).toEqual([1, 1, 1, 1, 1, 1, 1, 0, 0, 1]);
  });

  it('does not cross a dip of three frames, nor a dip with nothing above the edge past it', () => {
    const quiet = Array<number>(20).fill(-120);
    const held = Array<number>(6).fill(-25.7);
    expect(on([...quiet, ...held, -40, -41, -42, -18.1, ...quiet]).slice(20, 30)).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    ]);
    expect(on([...quiet, -18.1, -40, -41, -120, -25.7, ...quiet]).slice(20, 25)).toEqual([
      1, 0, 0, 0, 0,
    ]);
  });

  it('does not cross a dip to a few stray frames (a drum hit a little off on a pure offset)', () => {
    const quiet = Array<number>(20).fill(-120);
    const levels = [...quiet, -28, -29, -27, -40, -18.1, -40, -30, -29, -120, ...quiet];
    expect(on(levels).slice(20, 29)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0]);
  });
});
