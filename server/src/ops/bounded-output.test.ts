import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { boundedOutput } from '@takes/contract';

/** A stream whose reader can be held: writes complete only when released. */
function heldStream() {
  const written: string[] = [];
  let held = true;
  const pending: (() => void)[] = [];
  const stream = new Writable({
    decodeStrings: false,
    highWaterMark: 10,
    write(chunk: string, _encoding, callback) {
      const finish = () => {
        written.push(chunk);
        callback();
      };
      if (held) pending.push(finish);
      else finish();
    },
  });
  return {
    stream,
    written,
    release() {
      held = false;
      for (const finish of pending.splice(0)) finish();
    },
  };
}

const notice = (count: number) => `dropped ${count}\n`;

describe('boundedOutput', () => {
  it('keeps at most its bound while the reader stalls, then says how many lines it dropped', async () => {
    const held = heldStream();
    const output = boundedOutput(held.stream, { maxBuffered: 30, droppedNotice: notice });
    for (let i = 0; i < 10; i++) output.write(`line ${i}\n`); // 7 characters each
    expect(held.stream.writableLength).toBeLessThanOrEqual(30);
    expect(output.dropped).toBe(6);
    held.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.written).toEqual(['line 0\n', 'line 1\n', 'line 2\n', 'line 3\n', 'dropped 6\n']);
    expect(output.dropped).toBe(0);
    output.write('line 10\n');
    expect(held.written.at(-1)).toBe('line 10\n');
  });

  it('stops writing to a broken output instead of retrying it, and never throws', async () => {
    let writes = 0;
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        writes += 1;
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const output = boundedOutput(stream, { droppedNotice: notice });
    output.write('first\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.broken).toBe(true);
    expect(() => output.write('second\n')).not.toThrow();
    expect(writes).toBe(1);
    await expect(output.flush(1000)).resolves.toBeUndefined();
  });

  it('flushes: resolves once what was written has left, or at the deadline', async () => {
    const held = heldStream();
    const output = boundedOutput(held.stream, { droppedNotice: notice });
    output.write('last words\n');
    const started = Date.now();
    await output.flush(100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(held.written).toEqual([]);
    held.release();
    await output.flush(5000);
    expect(held.written).toEqual(['last words\n']);
  });
});
