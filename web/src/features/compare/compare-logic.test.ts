import { describe, expect, it } from 'vitest';
import {
  clampLevel,
  changeFrom,
  compareKeyAction,
  dbToGain,
  formatPosition,
  loudnessMatch,
  loudnessSummary,
  matchGains,
  normalizeRegion,
  playStartOffset,
  regionNumber,
  transportPosition,
  waveformPath,
} from './compare-logic';

describe('region', () => {
  it('counts an empty input as 0 and keeps numbers at or above 0', () => {
    expect(regionNumber('')).toBe(0);
    expect(regionNumber('  ')).toBe(0);
    expect(regionNumber('-3')).toBe(0);
    expect(regionNumber('2.5')).toBe(2.5);
    expect(regionNumber('abc')).toBe(0);
  });

  it('is none when both inputs are empty', () => {
    expect(normalizeRegion('', '')).toBeNull();
  });

  it('ends 10 s after the start when only the start is entered', () => {
    expect(normalizeRegion('4', '')).toEqual({ start: 4, end: 14 });
  });

  it('starts at 0 when only the end is entered', () => {
    expect(normalizeRegion('', '3')).toEqual({ start: 0, end: 3 });
  });

  it('clamps negative values to 0', () => {
    expect(normalizeRegion('-2', '5')).toEqual({ start: 0, end: 5 });
  });

  it('is none when the end is not after the start', () => {
    expect(normalizeRegion('5', '5')).toBeNull();
    expect(normalizeRegion('5', '2')).toBeNull();
    expect(normalizeRegion('3', '-1')).toBeNull();
  });

  it('is cut to a known length, and none when it starts past it', () => {
    expect(normalizeRegion('4', '', 8)).toEqual({ start: 4, end: 8 });
    expect(normalizeRegion('9', '12', 8)).toBeNull();
  });
});

describe('transport position', () => {
  const base = { startOffset: 2, duration: 10, loop: false, region: null };

  it('runs from the start offset with the clock', () => {
    expect(transportPosition({ ...base, elapsed: 1.5 })).toBeCloseTo(3.5);
    // Before a scheduled start the position waits at the offset.
    expect(transportPosition({ ...base, elapsed: -0.01 })).toBe(2);
  });

  it('stops at the end, or at the region end, with Loop off', () => {
    expect(transportPosition({ ...base, elapsed: 20 })).toBe(10);
    expect(transportPosition({ ...base, elapsed: 20, region: { start: 1, end: 4 } })).toBe(4);
  });

  it('wraps inside the region with Loop on', () => {
    const looped = { ...base, loop: true, region: { start: 1, end: 2 }, startOffset: 1 };
    expect(transportPosition({ ...looped, elapsed: 0.25 })).toBeCloseTo(1.25);
    expect(transportPosition({ ...looped, elapsed: 1.25 })).toBeCloseTo(1.25);
    expect(transportPosition({ ...looped, elapsed: 3.5 })).toBeCloseTo(1.5);
  });

  it('wraps over the whole length with Loop on and no region', () => {
    expect(transportPosition({ ...base, loop: true, elapsed: 9 })).toBeCloseTo(1);
  });
});

describe('play start offset', () => {
  it('goes on from the position without a region', () => {
    expect(playStartOffset(3, 10, null, true)).toBe(3);
  });

  it('starts over at the end', () => {
    expect(playStartOffset(10, 10, null, false)).toBe(0);
  });

  it('restarts from the region start when asked or when outside the region', () => {
    const region = { start: 1, end: 2 };
    expect(playStartOffset(1.5, 10, region, true)).toBe(1);
    expect(playStartOffset(1.5, 10, region, false)).toBe(1.5);
    expect(playStartOffset(5, 10, region, false)).toBe(1);
    expect(playStartOffset(0.5, 10, region, false)).toBe(1);
  });
});

describe('loudness matching', () => {
  it('turns the louder side down to the quieter one, never up', () => {
    const match = loudnessMatch(-14, -17.2);
    expect(match.available).toBe(true);
    if (!match.available) return;
    expect(match.gainDb.A).toBeCloseTo(-3.2);
    expect(match.gainDb.B).toBe(0);
    expect(match.differenceLu).toBeCloseTo(-3.2);
    const gains = matchGains(match, true);
    expect(gains.A).toBeCloseTo(dbToGain(-3.2));
    expect(gains.A).toBeLessThan(1);
    expect(gains.B).toBe(1);
  });

  it('uses unity gains when matching is off', () => {
    expect(matchGains(loudnessMatch(-14, -20), false)).toEqual({ A: 1, B: 1 });
  });

  it('is unavailable when a side has no measured loudness', () => {
    expect(loudnessMatch(null, -14)).toEqual({ available: false, missing: ['A'] });
    expect(matchGains(loudnessMatch(null, -14), true)).toEqual({ A: 1, B: 1 });
    expect(loudnessSummary(loudnessMatch(-14, null), true)).toBe(
      'Loudness matching unavailable: B has no measured loudness yet.',
    );
    expect(loudnessSummary(loudnessMatch(null, null), true)).toBe(
      'Loudness matching unavailable: A and B have no measured loudness yet.',
    );
  });

  it('says which side is louder, by how much, and whether it is matched', () => {
    expect(loudnessSummary(loudnessMatch(-20, -16.8), true)).toBe(
      'B is 3.2 LU louder than A — matched',
    );
    expect(loudnessSummary(loudnessMatch(-10, -16), false)).toBe(
      'A is 6.0 LU louder than B — not matched',
    );
    expect(loudnessSummary(loudnessMatch(-14, -14.01), true)).toBe(
      'A and B are equally loud (0.0 LU).',
    );
  });

  it('converts decibels to linear gain', () => {
    expect(dbToGain(0)).toBe(1);
    expect(dbToGain(-6)).toBeCloseTo(0.501, 3);
  });
});

describe('keys', () => {
  function key(k: string, target: EventTarget | null = document.body, extra = {}) {
    return {
      key: k,
      altKey: false,
      ctrlKey: false,
      metaKey: false,
      repeat: false,
      target,
      ...extra,
    };
  }
  function element(html: string): Element {
    const holder = document.createElement('div');
    holder.innerHTML = html;
    const child = holder.firstElementChild;
    if (!child) throw new Error('no element');
    return child;
  }

  it('maps Space to toggle and a/b to playing a side', () => {
    expect(compareKeyAction(key(' '))).toBe('toggle');
    expect(compareKeyAction(key('a'))).toBe('play-A');
    expect(compareKeyAction(key('B'))).toBe('play-B');
    expect(compareKeyAction(key('c'))).toBeNull();
  });

  it('maps n and Shift+n to the next and previous change, not while typing', () => {
    expect(compareKeyAction(key('n'))).toBe('next-change');
    expect(compareKeyAction(key('N', document.body, { shiftKey: true }))).toBe('previous-change');
    expect(compareKeyAction(key('n', element('<textarea></textarea>')))).toBeNull();
    expect(compareKeyAction(key('n', document.body, { ctrlKey: true }))).toBeNull();
  });

  it('finds the next change after the position and the one before the change just jumped to', () => {
    const regions = [{ start: 40 }, { start: 5 }, { start: 20 }];
    expect(changeFrom(regions, 0, 'next')).toBe(5);
    expect(changeFrom(regions, 5, 'next')).toBe(20);
    expect(changeFrom(regions, 41, 'next')).toBeNull();
    // Just after a jump to 20, back goes to 5, not to 20 again.
    expect(changeFrom(regions, 20.1, 'previous')).toBe(5);
    expect(changeFrom(regions, 30, 'previous')).toBe(20);
    expect(changeFrom(regions, 3, 'previous')).toBeNull();
  });

  it('ignores modified and repeated keys', () => {
    expect(compareKeyAction(key('a', document.body, { ctrlKey: true }))).toBeNull();
    expect(compareKeyAction(key('a', document.body, { metaKey: true }))).toBeNull();
    expect(compareKeyAction(key(' ', document.body, { altKey: true }))).toBeNull();
    expect(compareKeyAction(key(' ', document.body, { repeat: true }))).toBeNull();
  });

  it('leaves Space to controls that use it', () => {
    for (const html of [
      '<button>Set A</button>',
      '<input type="checkbox">',
      '<input type="range">',
      '<input type="number">',
      '<textarea></textarea>',
      '<a href="/x">x</a>',
      '<div role="slider" tabindex="0"></div>',
    ]) {
      expect(compareKeyAction(key(' ', element(html))), html).toBeNull();
    }
  });

  it('leaves letters to text entry but not to buttons or sliders', () => {
    expect(compareKeyAction(key('a', element('<input type="text">')))).toBeNull();
    expect(compareKeyAction(key('a', element('<input type="number">')))).toBeNull();
    expect(compareKeyAction(key('b', element('<textarea></textarea>')))).toBeNull();
    expect(compareKeyAction(key('a', element('<button>Play A</button>')))).toBe('play-A');
    expect(compareKeyAction(key('b', element('<input type="range">')))).toBe('play-B');
  });
});

describe('display', () => {
  it('formats the position with tenths', () => {
    expect(formatPosition(0)).toBe('0:00.0');
    expect(formatPosition(3.26)).toBe('0:03.2');
    expect(formatPosition(75.5)).toBe('1:15.5');
    expect(formatPosition(Number.NaN)).toBe('0:00.0');
  });

  it('clamps the level to 0..1', () => {
    expect(clampLevel(1.5)).toBe(1);
    expect(clampLevel(-1)).toBe(0);
    expect(clampLevel(0.42)).toBe(0.42);
    expect(clampLevel(Number.NaN)).toBe(1);
  });

  it('draws one bar per overview point', () => {
    const path = waveformPath([-1, 0], [1, 0], 100, 10);
    expect(path).toBe('M25 0V10M75 4.5V5.5');
    expect(waveformPath([], [], 100, 10)).toBe('M0 5H100');
  });
});
