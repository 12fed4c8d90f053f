import { describe, expect, it } from 'vitest';
import { BoundedGate } from './bounded-gate';

/** Work that runs until the test finishes it. */
function heldWork() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    work: async () => {
      started = true;
      await done;
    },
    get started() {
      return started;
    },
    finish: () => finish(),
  };
}

describe('BoundedGate', () => {
  it('runs at most `concurrent` at once, queues `queue` more in order, and refuses the rest', async () => {
    const gate = new BoundedGate({ concurrent: 2, queue: 2 });
    const works = Array.from({ length: 6 }, heldWork);
    const runs = works.map((w) => gate.run(w.work));
    await Promise.resolve();
    expect(works.map((w) => w.started)).toEqual([true, true, false, false, false, false]);
    expect(runs.map((r) => r !== undefined)).toEqual([true, true, true, true, false, false]);
    expect(gate.load).toEqual({ running: 2, waiting: 2 });

    // The second finishes: the first in line takes its place, a newcomer still cannot queue.
    works[1]?.finish();
    await runs[1];
    expect(works.map((w) => w.started)).toEqual([true, true, true, false, false, false]);
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    const late = heldWork();
    const lateRun = gate.run(late.work);
    expect(lateRun).toBeDefined();
    expect(gate.run(heldWork().work)).toBeUndefined();

    for (const w of [works[0], works[2], works[3], late]) w?.finish();
    await Promise.all([runs[0], runs[2], runs[3], lateRun]);
    expect(late.started).toBe(true);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of work that failed, and answers its error', async () => {
    const gate = new BoundedGate({ concurrent: 1, queue: 0 });
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    expect(await gate.run(() => Promise.resolve(42))).toBe(42);
  });

  it('counts a release only once', async () => {
    const gate = new BoundedGate({ concurrent: 1, queue: 1 });
    const release = await gate.enter();
    const next = gate.enter();
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    release?.();
    release?.();
    const nextRelease = await next;
    expect(gate.load).toEqual({ running: 1, waiting: 0 });
    expect(gate.enter()).toBeDefined();
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    nextRelease?.();
  });
});
