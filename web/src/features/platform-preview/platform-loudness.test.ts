// The contract's platform rules (packages/contract/src/platform-loudness.ts), with worked
// examples. Here because no vitest project runs tests under packages/contract.
import {
  PLATFORM_IDS,
  PLATFORMS,
  dbToLinear,
  platformGain,
  platformGainSentence,
  type PlatformId,
} from '@takes/contract';
import { describe, expect, it } from 'vitest';

function gain(platform: PlatformId, integratedLufs: number | null, truePeakDbfs: number | null) {
  return platformGain(platform, { integratedLufs, truePeakDbfs });
}

describe('PLATFORMS', () => {
  it('lists the five platforms with their targets and whether they raise quiet tracks', () => {
    expect(PLATFORM_IDS.map((id) => PLATFORMS[id].label)).toEqual([
      'Spotify',
      'Apple Music',
      'YouTube',
      'TIDAL',
      'Amazon Music',
    ]);
    expect(PLATFORM_IDS.map((id) => PLATFORMS[id].targetLufs)).toEqual([-14, -16, -14, -14, -14]);
    expect(PLATFORM_IDS.map((id) => PLATFORMS[id].raisesQuiet)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    for (const id of PLATFORM_IDS) expect(PLATFORMS[id].source).toMatch(/^https:\/\//);
  });
});

describe('platformGain: Spotify (−14 LUFS; up only until the true peak reaches −1 dBTP)', () => {
  it('turns a −8 LUFS master down 6.0 dB', () => {
    expect(gain('spotify', -8, -0.2)).toEqual({ gainDb: -6, limitedByPeak: false });
  });

  it("Spotify's own example: −20 LUFS with a −5 dBFS true peak is lifted only to −16 LUFS", () => {
    expect(gain('spotify', -20, -5)).toEqual({ gainDb: 4, limitedByPeak: true });
  });

  it('lifts a −20 LUFS track with a −3 dBTP peak by 2.0 dB (the −1 dBTP headroom)', () => {
    expect(gain('spotify', -20, -3)).toEqual({ gainDb: 2, limitedByPeak: true });
  });

  it('lifts a −16 LUFS track with room to spare the whole 2.0 dB', () => {
    expect(gain('spotify', -16, -6)).toEqual({ gainDb: 2, limitedByPeak: false });
  });

  it('leaves a quiet track whose peak is already above −1 dBTP at its own level', () => {
    expect(gain('spotify', -18, -0.5)).toEqual({ gainDb: 0, limitedByPeak: true });
  });

  it('plays a −14 LUFS master as it is', () => {
    expect(gain('spotify', -14, -1)).toEqual({ gainDb: 0, limitedByPeak: false });
  });
});

describe('platformGain: Apple Music (−16 LUFS; up until −1 dBTP)', () => {
  it('turns a −10 LUFS master down 6.0 dB', () => {
    expect(gain('apple_music', -10, -0.1)).toEqual({ gainDb: -6, limitedByPeak: false });
  });

  it('lifts a −20 LUFS track with a −10 dBTP peak the whole 4.0 dB', () => {
    expect(gain('apple_music', -20, -10)).toEqual({ gainDb: 4, limitedByPeak: false });
  });

  it('lifts a −20 LUFS track with a −4 dBTP peak only 3.0 dB', () => {
    expect(gain('apple_music', -20, -4)).toEqual({ gainDb: 3, limitedByPeak: true });
  });
});

describe('platformGain: platforms that only turn down', () => {
  it('YouTube turns a −9 LUFS master down 5.0 dB and never raises a quiet one', () => {
    expect(gain('youtube', -9, -1)).toEqual({ gainDb: -5, limitedByPeak: false });
    expect(gain('youtube', -20, -12)).toEqual({ gainDb: 0, limitedByPeak: false });
    expect(gain('youtube', -30, null)).toEqual({ gainDb: 0, limitedByPeak: false });
  });

  it('TIDAL turns a −10.5 LUFS master down 3.5 dB and leaves a −18 LUFS one alone', () => {
    expect(gain('tidal', -10.5, -0.3)?.gainDb).toBeCloseTo(-3.5, 10);
    expect(gain('tidal', -18, -8)).toEqual({ gainDb: 0, limitedByPeak: false });
  });

  it('Amazon Music turns a −7 LUFS master down 7.0 dB and leaves a −25 LUFS one alone', () => {
    expect(gain('amazon_music', -7, 0.4)).toEqual({ gainDb: -7, limitedByPeak: false });
    expect(gain('amazon_music', -25, -15)).toEqual({ gainDb: 0, limitedByPeak: false });
  });
});

describe('platformGain: missing measurements', () => {
  it('gives no preview without an integrated loudness', () => {
    for (const id of PLATFORM_IDS) {
      expect(gain(id, null, -1)).toBeNull();
      expect(platformGain(id, { integratedLufs: undefined, truePeakDbfs: undefined })).toBeNull();
      expect(gain(id, Number.NaN, -1)).toBeNull();
    }
  });

  it('needs the true peak only to raise a quiet track on a platform with a peak rule', () => {
    expect(gain('spotify', -20, null)).toBeNull();
    expect(gain('apple_music', -20, null)).toBeNull();
    expect(gain('spotify', -8, null)).toEqual({ gainDb: -6, limitedByPeak: false });
    expect(gain('tidal', -20, null)).toEqual({ gainDb: 0, limitedByPeak: false });
  });
});

describe('platformGainSentence', () => {
  it('says quieter, louder or at its own level, with one decimal', () => {
    expect(platformGainSentence('Spotify', -3.2)).toBe('Spotify will play this 3.2 dB quieter');
    expect(platformGainSentence('Spotify', -6)).toBe('Spotify will play this 6.0 dB quieter');
    expect(platformGainSentence('Apple Music', 1.5)).toBe(
      'Apple Music will play this 1.5 dB louder',
    );
    expect(platformGainSentence('TIDAL', 0)).toBe('TIDAL will play this at its own level');
    expect(platformGainSentence('YouTube', -0.04)).toBe('YouTube will play this at its own level');
    expect(platformGainSentence('YouTube', 0.049)).toBe('YouTube will play this at its own level');
    expect(platformGainSentence('Spotify', -0.05)).toBe('Spotify will play this 0.1 dB quieter');
    expect(platformGainSentence('Spotify', -3.26)).toBe('Spotify will play this 3.3 dB quieter');
  });
});

describe('dbToLinear', () => {
  it('turns dB into a gain factor', () => {
    expect(dbToLinear(0)).toBe(1);
    expect(dbToLinear(-6)).toBeCloseTo(0.501, 3);
    expect(dbToLinear(20)).toBeCloseTo(10, 10);
  });
});
