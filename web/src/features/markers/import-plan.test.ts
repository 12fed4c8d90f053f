import { COMMENT_MAX_LENGTH } from '@takes/contract';
import { describe, expect, it } from 'vitest';
import { markerTime, planImport } from './import-plan';

describe('planImport', () => {
  it('puts the markers in time order, and keeps ranges and points as they are', () => {
    const plan = planImport(
      [
        { start: 30, end: 35.5, label: 'Second chorus' },
        { start: 2, end: null, label: 'Intro' },
      ],
      60,
    );
    expect(plan).toEqual({
      post: [
        { start: 2, end: null, label: 'Intro' },
        { start: 30, end: 35.5, label: 'Second chorus' },
      ],
      beyond: [],
    });
  });

  it('leaves out markers after the end, and cuts a range at the end', () => {
    const plan = planImport(
      [
        { start: 50, end: 70, label: 'Outro' },
        { start: 61, end: null, label: 'Past the end' },
        { start: 60, end: 65, label: 'At the very end' },
      ],
      60,
    );
    expect(plan.post).toEqual([
      { start: 50, end: 60, label: 'Outro' },
      { start: 60, end: null, label: 'At the very end' },
    ]);
    expect(plan.beyond).toEqual([{ start: 61, end: null, label: 'Past the end' }]);
  });

  it('keeps everything while the length is not known, and cuts long labels', () => {
    const long = 'a'.repeat(COMMENT_MAX_LENGTH + 10);
    const plan = planImport([{ start: 5000, end: null, label: long }], null);
    expect(plan.beyond).toEqual([]);
    expect(plan.post[0]?.label.length).toBe(COMMENT_MAX_LENGTH);
  });
});

describe('markerTime', () => {
  it('reads like the comment list: m:ss, or a passage', () => {
    expect(markerTime({ start: 75, end: null, label: '' })).toBe('1:15');
    expect(markerTime({ start: 5.5, end: 9, label: '' })).toBe('0:05–0:09');
  });
});
