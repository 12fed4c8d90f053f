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
    // The kept formatter gives each date its own text.
    expect(formatDateTime('2025-12-31T09:00:00.000Z')).not.toBe(formatDateTime(iso));
  });

  it('write nothing for a missing or unreadable date', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDate(value)).toBe('');
      expect(formatDateTime(value)).toBe('');
    }
  });
});
