import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './activity.service';

describe("the activity 'Load more' cursor", () => {
  it('round-trips the last row', () => {
    const cursor = { createdAt: '2026-11-23T23:00:00.123Z', id: 'a1' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it('hands the database only ISO times (found by fuzzing: "-32" passed Date.parse and was a 500 on PostgreSQL)', () => {
    const decoded = decodeCursor(encodeCursor({ createdAt: '-32', id: 'x' }));
    expect(decoded?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    for (const time of ['not a time', '+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00Z']) {
      expect(() => decodeCursor(encodeCursor({ createdAt: time, id: 'x' }))).toThrow(
        'Invalid cursor',
      );
    }
  });
});
