import { describe, expect, it } from 'vitest';
import { downsampled } from './audio-view';

describe('downsampled', () => {
  it('keeps the extremes of each bucket and the duration', () => {
    const waveform = { min: [-0.1, -0.9, -0.2, -0.3], max: [0.2, 0.4, 0.8, 0.1], duration: 12 };
    expect(downsampled(waveform, 2)).toEqual({ min: [-0.9, -0.3], max: [0.4, 0.8], duration: 12 });
  });

  it('leaves a waveform with few enough points as it is', () => {
    const waveform = { min: [-0.5], max: [0.5], duration: 1 };
    expect(downsampled(waveform, 300)).toBe(waveform);
    const stored = Array.from({ length: 1000 }, (_, i) => (i % 100) / 100);
    const cut = downsampled({ min: stored.map((p) => -p), max: stored, duration: 200 }, 300);
    expect(cut.max).toHaveLength(300);
    expect(Math.max(...cut.max)).toBe(0.99);
  });
});
