import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatRelativeTime } from './format';

const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('formatRelativeTime thresholds', () => {
  it.each([
    [0, 'just now'],
    [44, 'just now'],
    [45, '1 minute ago'],
    [10 * 60, '10 minutes ago'],
    [44 * 60, '44 minutes ago'],
    [45 * 60, '1 hour ago'],
    [21 * 3600, '21 hours ago'],
    [22 * 3600, '1 day ago'],
    [25 * 86_400, '25 days ago'],
    [26 * 86_400, '1 month ago'],
    [10 * 30.4375 * 86_400, '10 months ago'],
    [11 * 30.4375 * 86_400, '1 year ago'],
    [3 * 365.25 * 86_400, '3 years ago'],
  ])('%d seconds ago reads %s', (seconds, expected) => {
    expect(formatRelativeTime(ago(seconds), NOW)).toBe(expected);
  });

  it('writes what Intl.RelativeTimeFormat writes in en-US, for every count and unit', () => {
    const intl = new Intl.RelativeTimeFormat('en-US', { numeric: 'always' });
    const seconds = { minute: 60, hour: 3600, day: 86_400 } as const;
    for (const [unit, size] of Object.entries(seconds))
      for (const n of [1, 2, 10, 21]) {
        if (unit === 'minute' || n < 22)
          expect(formatRelativeTime(ago(n * size), NOW)).toBe(intl.format(-n, unit as 'day'));
      }
    for (const years of [1, 2, 56, 1234, 20_000])
      expect(formatRelativeTime(ago(years * 365.25 * 86_400), NOW)).toBe(
        intl.format(-years, 'year'),
      );
  });

  it('reads a time in the future (clock skew) as just now, and nothing for no date', () => {
    expect(formatRelativeTime(ago(-120), NOW)).toBe('just now');
    expect(formatRelativeTime(null, NOW)).toBe('');
    expect(formatRelativeTime('not a date', NOW)).toBe('');
  });
});

describe('formatDate and formatDateTime', () => {
  it('write what toLocaleString writes, in en-US', () => {
    const iso = '2026-01-02T15:04:00.000Z';
    expect(formatDate(iso)).toBe(
      new Date(iso).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
      }),
    );
    expect(formatDateTime(iso)).toBe(
      new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
    );
    // Every month, hour and minute edge, in this machine's time zone as Intl writes them.
    const intlDate = { year: 'numeric', month: 'short', day: 'numeric' } as const;
    const intlDateTime = { dateStyle: 'medium', timeStyle: 'short' } as const;
    for (let month = 0; month < 12; month++)
      for (const [day, hour, minute] of [
        [1, 0, 0],
        [9, 0, 59],
        [15, 11, 5],
        [28, 12, 0],
        [28, 12, 30],
        [28, 13, 1],
        [28, 23, 59],
      ] as const) {
        const date = new Date(1999 + month * 3, month, day, hour, minute);
        const at = date.toISOString();
        expect(formatDate(at)).toBe(date.toLocaleDateString('en-US', intlDate));
        expect(formatDateTime(at)).toBe(date.toLocaleString('en-US', intlDateTime));
      }
    // Each date its own text.
    expect(formatDateTime('2025-12-31T09:00:00.000Z')).not.toBe(formatDateTime(iso));
  });

  it('write nothing for a missing or unreadable date', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDate(value)).toBe('');
      expect(formatDateTime(value)).toBe('');
    }
  });
});
