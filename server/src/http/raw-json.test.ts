import { describe, expect, it } from 'vitest';
import { RawJson, stringifyWithRaw } from './raw-json';

describe('stringifyWithRaw', () => {
  it('writes stored JSON text in place, the rest as JSON.stringify does', () => {
    const value = {
      items: [
        {
          title: 'Night "Drive"',
          waveform: new RawJson('{"min":[-0.5,0],"max":[0.5,1],"duration":3}'),
        },
        { title: 'rawless', waveform: null, n: 1.5 },
        { title: 'Second', waveform: new RawJson('[1,2]') },
      ],
    };
    const text = stringifyWithRaw(value);
    expect(JSON.parse(text)).toEqual({
      items: [
        { title: 'Night "Drive"', waveform: { min: [-0.5, 0], max: [0.5, 1], duration: 3 } },
        { title: 'rawless', waveform: null, n: 1.5 },
        { title: 'Second', waveform: [1, 2] },
      ],
    });
    expect(stringifyWithRaw({ a: [1, 'x'] })).toBe(JSON.stringify({ a: [1, 'x'] }));
  });

  it('follows JSON.stringify for dates, undefined, functions, nesting and top-level values', () => {
    const when = new Date('2026-11-26T01:00:00.000Z');
    const value = {
      when,
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 1, null, 'a\u2028"b', 0, -0, Number.NaN, { deep: [when] }],
      empty: {},
      none: [],
      unicode: 'Café ☕ \u0000',
    };
    expect(stringifyWithRaw(value)).toBe(JSON.stringify(value));
    for (const top of [null, 1, 'text', true, [], {}, when])
      expect(stringifyWithRaw(top)).toBe(JSON.stringify(top));
  });

  it('takes no user text for a placeholder', () => {
    const text = stringifyWithRaw({ title: '\u2063raw0_0', w: new RawJson('[1]') });
    expect(JSON.parse(text)).toEqual({ title: '\u2063raw0_0', w: [1] });
  });
});
