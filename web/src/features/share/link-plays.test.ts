import { describe, expect, it } from 'vitest';
import { linkPlaysText } from './link-plays';

const now = Date.parse('2026-11-23T12:00:00.000Z');

describe('linkPlaysText', () => {
  it("reads 'Not played yet' at 0, 'Played 1 time' singular, 'Played N times' plural", () => {
    expect(linkPlaysText({ play_count: 0, last_played_at: null }, now)).toBe('Not played yet');
    expect(linkPlaysText({ play_count: 1, last_played_at: '2026-11-23T11:59:50.000Z' }, now)).toBe(
      'Played 1 time · last played just now',
    );
    expect(linkPlaysText({ play_count: 12, last_played_at: '2026-11-20T12:00:00.000Z' }, now)).toBe(
      'Played 12 times · last played 3 days ago',
    );
    expect(linkPlaysText({ play_count: 2, last_played_at: null }, now)).toBe('Played 2 times');
  });
});
