import { describe, expect, it, vi } from 'vitest';
import { CompareEngine } from './compare-engine';

// A small stand-in for the Web Audio graph (jsdom has none): it records what the engine schedules.

class FakeParam {
  value = 1;
  /** The last ramp target, i.e. where the value settles. */
  target = 1;
  cancelScheduledValues() {}
  setValueAtTime(value: number) {
    this.value = value;
    this.target = value;
  }
  linearRampToValueAtTime(value: number) {
    this.target = value;
  }
}

class FakeGain {
  gain = new FakeParam();
  connect = vi.fn();
  disconnect = vi.fn();
}

class FakeBuffer {
  constructor(
    readonly numberOfChannels: number,
    readonly length: number,
    readonly sampleRate: number,
  ) {}
  get duration() {
    return this.length / this.sampleRate;
  }
  getChannelData() {
    return new Float32Array(this.length);
  }
  copyToChannel = vi.fn();
}

class FakeSource {
  buffer: FakeBuffer | null = null;
  loop = false;
  loopStart = 0;
  loopEnd = 0;
  onended: (() => void) | null = null;
  started: { when: number; offset: number } | null = null;
  stoppedAt: number | null = null;
  /** Stopped at once (replaced), rather than scheduled to stop. */
  killed = false;
  connect = vi.fn();
  disconnect = vi.fn();
  start(when: number, offset: number) {
    this.started = { when, offset };
  }
  stop(when?: number) {
    if (when === undefined) this.killed = true;
    else this.stoppedAt = when;
  }
}

class FakeContext {
  currentTime = 0;
  state = 'running';
  destination = {};
  gains: FakeGain[] = [];
  sources: FakeSource[] = [];
  createGain() {
    const gain = new FakeGain();
    this.gains.push(gain);
    return gain;
  }
  createBufferSource() {
    const source = new FakeSource();
    this.sources.push(source);
    return source;
  }
  createBuffer(channels: number, length: number, rate: number) {
    return new FakeBuffer(channels, length, rate);
  }
  resume = vi.fn(() => Promise.resolve());
  close = vi.fn(() => {
    this.state = 'closed';
    return Promise.resolve();
  });
}

const RATE = 1000;

function setup(secondsA = 10, secondsB = 10) {
  const context = new FakeContext();
  const onStopped = vi.fn();
  const engine = new CompareEngine({
    createContext: () => context as unknown as AudioContext,
    onStopped,
  });
  engine.setBuffer('A', new FakeBuffer(1, secondsA * RATE, RATE) as unknown as AudioBuffer);
  engine.setBuffer('B', new FakeBuffer(2, secondsB * RATE, RATE) as unknown as AudioBuffer);
  // gains[0] is the master; then one per side in the order they are first played.
  const sideGain = (index: number) => context.gains[index + 1]?.gain.target;
  // The sources of the latest start: not replaced, and started last.
  const live = () => {
    const running = context.sources.filter((source) => !source.killed && source.started);
    const latest = Math.max(...running.map((source) => source.started?.when ?? 0));
    return running.filter((source) => source.started?.when === latest);
  };
  return { context, engine, onStopped, sideGain, live };
}

describe('CompareEngine', () => {
  it('starts both sides together at the same offset and clock time', () => {
    const { context, engine, live } = setup();
    engine.seek(2);
    engine.play();
    const [a, b] = live();
    expect(a?.started).toEqual(b?.started);
    expect(a?.started?.offset).toBe(2);
    context.currentTime = 1.51;
    expect(engine.position()).toBeCloseTo(3.5);
  });

  it('switches sides by gains only, keeping the sources and the position', () => {
    const { context, engine, sideGain, live } = setup();
    engine.play();
    expect(sideGain(0)).toBe(1);
    expect(sideGain(1)).toBe(0);
    context.currentTime = 4;
    const before = engine.position();
    const sourcesBefore = live();
    engine.setActive('B');
    expect(sideGain(0)).toBe(0);
    expect(sideGain(1)).toBe(1);
    expect(live()).toEqual(sourcesBefore);
    expect(engine.position()).toBe(before);
  });

  it('applies level times the loudness-match gain to the side heard', () => {
    const { engine, sideGain } = setup();
    engine.play();
    engine.setLevel('A', 0.5);
    engine.setMatchGain('A', 0.8);
    expect(sideGain(0)).toBeCloseTo(0.4);
  });

  it('pauses and resumes from the same position', () => {
    const { context, engine, live } = setup();
    engine.play();
    context.currentTime = 3.01;
    engine.pause();
    expect(engine.isPlaying()).toBe(false);
    expect(engine.position()).toBeCloseTo(3);
    context.currentTime = 9;
    expect(engine.position()).toBeCloseTo(3);
    engine.play();
    expect(live()[0]?.started?.offset).toBeCloseTo(3);
  });

  it('loops the region on both sources with Loop on', () => {
    const { context, engine, live } = setup();
    engine.setLoop(true);
    engine.setRegion({ start: 1, end: 2 });
    engine.play({ restartFromRegion: true });
    for (const source of live()) {
      expect(source).toMatchObject({ loop: true, loopStart: 1, loopEnd: 2 });
      expect(source.started?.offset).toBe(1);
    }
    context.currentTime = 0.01 + 2.5;
    expect(engine.position()).toBeCloseTo(1.5);
  });

  it('stops at the region end with Loop off and reports it', () => {
    const { context, engine, onStopped, live } = setup();
    engine.setRegion({ start: 1, end: 2 });
    engine.play({ restartFromRegion: true });
    const [first] = live();
    expect(first?.stoppedAt).toBeCloseTo(1.01);
    context.currentTime = 1.02;
    first?.onended?.();
    expect(engine.isPlaying()).toBe(false);
    expect(engine.position()).toBe(2);
    expect(onStopped).toHaveBeenCalledTimes(1);
  });

  it('ignores the end of sources it replaced', () => {
    const { engine, onStopped, context } = setup();
    engine.play();
    const old = context.sources[0];
    engine.seek(5);
    old?.onended?.();
    expect(engine.isPlaying()).toBe(true);
    expect(onStopped).not.toHaveBeenCalled();
  });

  it('pads the shorter bounce with silence to the longer one', () => {
    const { engine, live } = setup(4, 6);
    expect(engine.duration()).toBe(6);
    engine.play();
    const lengths = live().map((source) => source.buffer?.length);
    expect(lengths).toEqual([6 * RATE, 6 * RATE]);
  });

  it('keeps playing the other side when one is cleared, and stops with none left', () => {
    const { engine, onStopped, live } = setup();
    engine.play();
    engine.clear('A');
    expect(engine.isPlaying()).toBe(true);
    expect(live()).toHaveLength(1);
    engine.clear('B');
    expect(engine.isPlaying()).toBe(false);
    expect(onStopped).toHaveBeenCalledTimes(1);
  });

  it('closes its audio context when disposed', () => {
    const { engine, context } = setup();
    engine.play();
    engine.dispose();
    expect(context.close).toHaveBeenCalled();
  });
});
