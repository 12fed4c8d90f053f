import { describe, expect, it } from 'vitest';
import { alignFeatures, mapTime, withoutCrossings } from './align';
import { ALIGN_SAMPLE_RATE, featuresOf } from './features';

/** A melody of random notes (seeded), `seconds` long, at the alignment's rate. */
function melody(seconds: number, seed: number): Float32Array {
  let state = seed;
  const rand = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const out = new Float32Array(seconds * ALIGN_SAMPLE_RATE);
  for (let t = 0; t < seconds;) {
    const length = 0.2 + rand() * 0.6;
    const hz = 220 * 2 ** (Math.floor(rand() * 24) / 12);
    const from = Math.floor(t * ALIGN_SAMPLE_RATE);
    for (let n = 0; n < length * ALIGN_SAMPLE_RATE && from + n < out.length; n++) {
      const time = n / ALIGN_SAMPLE_RATE;
      out[from + n] = 0.3 * Math.exp(-3 * time) * Math.sin(2 * Math.PI * hz * time);
    }
    t += length;
  }
  return out;
}

const at = (seconds: number) => Math.round(seconds * ALIGN_SAMPLE_RATE);
const join = (...parts: Float32Array[]) => {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

describe('alignFeatures', () => {
  const original = melody(40, 7);

  it('maps times through an intro cut and 6 s inserted at 0:20, within 100 ms', () => {
    const inserted = melody(6, 99).map((sample) => sample * 0.8);
    const edited = join(original.subarray(at(1.5), at(20)), inserted, original.subarray(at(20)));
    const { segments, confidence } = alignFeatures(featuresOf(original), featuresOf(edited));
    expect(confidence).toBeGreaterThan(0.6);
    const truth = (t: number) => (t < 1.5 ? null : t < 20 ? t - 1.5 : t - 1.5 + 6);
    let hits = 0;
    let anchors = 0;
    for (let t = 2; t < 39.5; t += 0.25) {
      if (Math.abs(t - 20) < 0.3) continue;
      anchors += 1;
      const mapped = mapTime(segments, t);
      if (mapped !== null && Math.abs(mapped - (truth(t) ?? -1)) <= 0.1) hits += 1;
    }
    expect(hits / anchors).toBeGreaterThan(0.97);
    // The cut intro has no counterpart.
    expect(mapTime(segments, 0.5)).toBeNull();
  });

  it('maps a louder copy one to one', () => {
    const louder = original.map((sample) => sample * 1.41);
    const { segments } = alignFeatures(featuresOf(original), featuresOf(louder));
    for (const t of [1, 10, 25.3, 38]) expect(mapTime(segments, t)).toBeCloseTo(t, 1);
  });
});

describe('withoutCrossings', () => {
  // Frames of 0.1 s: a piece is [i0, i1] of the first version onto [j0, j1] of the second.
  const piece = (i0: number, i1: number, j0: number, j1: number) => ({ i0, i1, j0, j1 });

  it('leaves out a short piece inside a repeat the second version has (a bar that recurs)', () => {
    // The third held-out chords' repeat: 0–35 s, then 1.2 s of the repeat matched to 35–36.2 s
    // of the first version, then the rest after the repeat.
    const pieces = [piece(0, 350, 0, 350), piece(350, 362, 421, 433), piece(362, 660, 512, 810)];
    expect(withoutCrossings(pieces, 0.1)).toEqual([pieces[0], pieces[2]]);
  });

  it('keeps a short piece between jumps over different versions, and a long piece', () => {
    // Material removed before it and material inserted after it: an edit, not a crossing.
    const edit = [piece(0, 200, 0, 200), piece(250, 265, 200, 215), piece(265, 400, 295, 430)];
    expect(withoutCrossings(edit, 0.1)).toEqual(edit);
    const long = [piece(0, 350, 0, 350), piece(350, 380, 421, 451), piece(380, 660, 530, 810)];
    expect(withoutCrossings(long, 0.1)).toEqual(long);
  });
});
