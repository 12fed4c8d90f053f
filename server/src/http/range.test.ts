import { describe, expect, it } from 'vitest';
import { ifRangeMatches, noneMatch, parseRange } from './range';

describe('parseRange', () => {
  it('reads closed, open-ended and suffix ranges', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
  });

  it('serves the whole object for absent, malformed or multi-range headers', () => {
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
    expect(parseRange('bytes=0-1,3-4', 10)).toBeUndefined();
    expect(parseRange('bytes=5-2', 10)).toBeUndefined();
    expect(parseRange('bytes=-', 10)).toBeUndefined();
  });

  it('reports ranges that cannot be served', () => {
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});

describe('ifRangeMatches and noneMatch', () => {
  const lastModified = new Date('2026-11-23T12:00:00.500Z');
  const current = { etag: `"${'a'.repeat(64)}"`, lastModified };

  it('allows the range without If-Range, or with the same strong ETag or exact date', () => {
    expect(ifRangeMatches(undefined, current)).toBe(true);
    expect(ifRangeMatches(current.etag, current)).toBe(true);
    expect(ifRangeMatches(lastModified.toUTCString(), current)).toBe(true);
  });

  it('refuses another ETag, a weak one, an older date, garbage, or an ETag when none is known', () => {
    expect(ifRangeMatches(`"${'b'.repeat(64)}"`, current)).toBe(false);
    expect(ifRangeMatches(`W/${current.etag}`, current)).toBe(false);
    expect(ifRangeMatches(new Date('2026-11-22T12:00:00Z').toUTCString(), current)).toBe(false);
    expect(ifRangeMatches('yesterday', current)).toBe(false);
    expect(ifRangeMatches(current.etag, { lastModified })).toBe(false);
  });

  it('If-None-Match compares weakly and understands lists and *', () => {
    expect(noneMatch(current.etag, current.etag)).toBe(true);
    expect(noneMatch(`"x", W/${current.etag}`, current.etag)).toBe(true);
    expect(noneMatch('*', current.etag)).toBe(true);
    expect(noneMatch('"high.mp3"', current.etag)).toBe(false);
    expect(noneMatch(undefined, current.etag)).toBe(false);
  });
});
