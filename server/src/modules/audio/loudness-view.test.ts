import { describe, expect, it } from 'vitest';
import { loudnessView } from './audio-view';

describe('a stored loudness measurement', () => {
  it('is answered in the API names, whatever processing stored', () => {
    const stored = JSON.stringify({ integratedLufs: -14.2, loudnessRange: 6.1, truePeakDbfs: -1 });
    expect(loudnessView(stored)).toEqual({
      integrated_lufs: -14.2,
      loudness_range: 6.1,
      true_peak_dbfs: -1,
    });
  });

  it('is null when none was made, and a missing figure is null', () => {
    expect(loudnessView(null)).toBeNull();
    expect(loudnessView(JSON.stringify({ integratedLufs: -20 }))).toEqual({
      integrated_lufs: -20,
      loudness_range: null,
      true_peak_dbfs: null,
    });
  });
});
