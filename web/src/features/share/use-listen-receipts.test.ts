import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  createListenTracker,
  useListenReceipts,
  type ListenEvent,
  type ListenSample,
} from './use-listen-receipts';

const SAMPLE_MS = 250;

/** Drives a tracker like the player's time updates: `seconds` of playing, one sample each 250 ms. */
function simulator(duration: number | null = 200, itemId = 'i1') {
  const tracker = createListenTracker();
  let now = 0;
  let position = 0;
  let playing = false;
  const events: ListenEvent[] = [];
  const sample = (overrides: Partial<ListenSample> = {}) =>
    events.push(
      ...tracker.update(
        { itemId, playing, position, duration, playbackRate: 1, ...overrides },
        now,
      ),
    );
  return {
    events,
    sample,
    start() {
      playing = true;
      sample();
    },
    pause() {
      playing = false;
      sample();
    },
    play(seconds: number) {
      for (let t = 0; t < seconds * 1000; t += SAMPLE_MS) {
        now += SAMPLE_MS;
        position += SAMPLE_MS / 1000;
        sample();
      }
    },
    /** A jump of the position with (almost) no time passing: a click on the waveform. */
    seek(to: number) {
      now += 20;
      position = to;
      sample();
    },
    wait(ms: number) {
      now += ms;
    },
  };
}

describe('createListenTracker', () => {
  it("says 'play' once when a play starts, not again on pause and resume", () => {
    const run = simulator();
    run.sample();
    expect(run.events).toEqual([]);
    run.start();
    expect(run.events).toEqual(['play']);
    run.play(5);
    run.pause();
    run.wait(10_000);
    run.start();
    run.play(5);
    expect(run.events).toEqual(['play']);
  });

  it("says 'played_30s' after 30 s heard, counting only time played", () => {
    const run = simulator();
    run.start();
    run.play(29);
    expect(run.events).toEqual(['play']);
    run.pause();
    // Paused time is not heard time.
    run.wait(60_000);
    run.start();
    run.play(0.75);
    expect(run.events).toEqual(['play']);
    run.play(0.5);
    expect(run.events).toEqual(['play', 'played_30s']);
    run.play(20);
    expect(run.events).toEqual(['play', 'played_30s']);
  });

  it('does not count seeking as listening', () => {
    const run = simulator(400);
    run.start();
    run.play(10);
    // A jump of 240 s while playing: ten seconds were heard, not 250.
    run.seek(250);
    run.play(1);
    expect(run.events).toEqual(['play']);
    // Nor does a jump made while paused, however long the pause.
    run.pause();
    run.wait(60_000);
    run.seek(290);
    run.start();
    run.play(1);
    expect(run.events).toEqual(['play']);
    run.play(17);
    expect(run.events).toEqual(['play']);
    run.play(1);
    expect(run.events).toEqual(['play', 'played_30s']);
  });

  it("says 'played_90' once 90 % of the duration has been heard", () => {
    const run = simulator(40);
    run.start();
    run.play(30);
    expect(run.events).toEqual(['play', 'played_30s']);
    run.play(5.75);
    expect(run.events).toEqual(['play', 'played_30s']);
    run.play(0.5);
    expect(run.events).toEqual(['play', 'played_30s', 'played_90']);
    run.play(3);
    expect(run.events).toEqual(['play', 'played_30s', 'played_90']);
  });

  it('waits for a duration before saying played_90', () => {
    const run = simulator(null);
    run.start();
    run.play(20);
    expect(run.events).toEqual(['play']);
    run.sample({ duration: 21 });
    expect(run.events).toEqual(['play', 'played_90']);
  });

  it('starts a new play on a restart after the end, on another item, and after something else', () => {
    const run = simulator(10);
    run.start();
    run.play(10);
    expect(run.events).toEqual(['play', 'played_90']);
    // The end: paused there, then played again from the start.
    run.pause();
    run.seek(0);
    run.start();
    run.play(9.5);
    expect(run.events).toEqual(['play', 'played_90', 'play', 'played_90']);

    const tracker = createListenTracker();
    const base = { playing: true, position: 0, duration: 100, playbackRate: 1 };
    expect(tracker.update({ ...base, itemId: 'a' }, 0)).toEqual(['play']);
    expect(tracker.update({ ...base, itemId: 'b' }, 100)).toEqual(['play']);
    expect(tracker.update({ ...base, itemId: 'a' }, 200)).toEqual(['play']);
    expect(tracker.update({ ...base, itemId: null }, 300)).toEqual([]);
    expect(tracker.update({ ...base, itemId: 'a' }, 400)).toEqual(['play']);
    // A seek back to the start in the middle of a play is the same play.
    expect(tracker.update({ ...base, itemId: 'a', position: 50 }, 450)).toEqual([]);
    expect(tracker.update({ ...base, itemId: 'a', position: 0 }, 500)).toEqual([]);
  });

  it('counts faster playback as more heard time, up to what was played', () => {
    const tracker = createListenTracker();
    const base = { itemId: 'a', playing: true, duration: 1000 };
    tracker.update({ ...base, position: 0, playbackRate: 2 }, 0);
    const events: ListenEvent[] = [];
    for (let second = 1; second <= 15; second += 1) {
      events.push(
        ...tracker.update({ ...base, position: second * 2, playbackRate: 2 }, second * 1000),
      );
    }
    expect(events).toEqual(['played_30s']);
  });
});

describe('useListenReceipts', () => {
  it('reports each due receipt with its item as the player samples come in', () => {
    const onReceipt = vi.fn<(itemId: string, event: ListenEvent) => void>();
    let now = 0;
    const clock = () => now;
    const initial: ListenSample = {
      itemId: 'i1',
      playing: false,
      position: 0,
      duration: 50,
      playbackRate: 1,
    };
    const { rerender } = renderHook(
      ({ sample }: { sample: ListenSample }) => useListenReceipts(sample, onReceipt, clock),
      { initialProps: { sample: initial } },
    );
    expect(onReceipt).not.toHaveBeenCalled();

    rerender({ sample: { ...initial, playing: true } });
    expect(onReceipt).toHaveBeenCalledWith('i1', 'play');

    // Fake time updates: 46 s of playing, four a second.
    for (let tick = 1; tick <= 46 * 4; tick += 1) {
      now = tick * 250;
      rerender({ sample: { ...initial, playing: true, position: tick / 4 } });
    }
    expect(onReceipt.mock.calls).toEqual([
      ['i1', 'play'],
      ['i1', 'played_30s'],
      ['i1', 'played_90'],
    ]);

    // The same sample again (a re-render for another reason) says nothing more.
    rerender({ sample: { ...initial, playing: true, position: 46 } });
    // The next item of the list starts: a new play.
    rerender({ sample: { ...initial, itemId: 'i2', playing: true } });
    expect(onReceipt).toHaveBeenLastCalledWith('i2', 'play');
    expect(onReceipt).toHaveBeenCalledTimes(4);
  });

  it('does not count a seek to near the end as hearing 90 %', () => {
    const onReceipt = vi.fn<(itemId: string, event: ListenEvent) => void>();
    let now = 0;
    const base: ListenSample = {
      itemId: 'i1',
      playing: true,
      position: 0,
      duration: 100,
      playbackRate: 1,
    };
    const { rerender } = renderHook(
      ({ sample }: { sample: ListenSample }) => useListenReceipts(sample, onReceipt, () => now),
      { initialProps: { sample: base } },
    );
    now = 250;
    rerender({ sample: { ...base, position: 0.25 } });
    now = 300;
    rerender({ sample: { ...base, position: 95 } });
    for (let tick = 1; tick <= 16; tick += 1) {
      now = 300 + tick * 250;
      rerender({ sample: { ...base, position: 95 + tick / 4 } });
    }
    expect(onReceipt.mock.calls).toEqual([['i1', 'play']]);
  });
});
