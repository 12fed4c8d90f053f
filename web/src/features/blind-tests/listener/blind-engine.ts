import { playStartOffset, transportPosition } from '../../compare/compare-logic';
import { readWithProgress } from '../../compare/read-with-progress';

/** Gain changes (switching letters, pausing) ramp over this long so they never click. */
const RAMP_SECONDS = 0.005;
/** Sources start this far ahead of the clock so every one begins on the same sample. */
const START_LOOKAHEAD_SECONDS = 0.01;

export interface BlindEngineOptions {
  /** Makes the audio context on first use. */
  createContext?: () => AudioContext;
  /** Playback reached the end by itself. */
  onStopped?: () => void;
}

interface Slot {
  buffer: AudioBuffer | null;
  gain: GainNode | null;
  source: AudioBufferSourceNode | null;
}

/**
 * The blind test's transport: the compare engine's way (see compare-engine.ts) for any number of
 * options. Every option is a buffer source into its own gain and they all start together at the
 * same offset on one audio clock, so switching letters only moves the gains: the position is the
 * same for every option by construction and the switch has no gap.
 */
export class BlindEngine {
  private context: AudioContext | null = null;
  private master: GainNode | null = null;
  private readonly slots = new Map<string, Slot>();
  private active: string | null = null;
  /** The source whose `ended` stands for all of them (the longest). */
  private reporter: AudioBufferSourceNode | null = null;
  private playing = false;
  private startedAt = 0;
  private startOffset = 0;
  private pausedAt = 0;
  /** Bumped on every start and stop, so a stale source's `ended` event is ignored. */
  private generation = 0;
  private disposed = false;

  constructor(private readonly options: BlindEngineOptions = {}) {}

  private audio(): AudioContext {
    if (this.disposed) throw new Error('The blind test player was closed');
    if (!this.context) {
      const context = this.options.createContext?.() ?? new AudioContext();
      this.master = context.createGain();
      this.master.connect(context.destination);
      this.context = context;
    }
    return this.context;
  }

  /** Downloads and decodes an option's audio; it joins playback in step if others are playing. */
  async load(key: string, url: string, signal?: AbortSignal): Promise<number> {
    const context = this.audio();
    const response = await fetch(url, { credentials: 'same-origin', signal });
    if (!response.ok) throw new Error(`The audio could not be loaded (HTTP ${response.status})`);
    const data = await readWithProgress(response, undefined);
    const buffer = await context.decodeAudioData(data);
    signal?.throwIfAborted();
    if (this.disposed) return buffer.duration;
    this.setBuffer(key, buffer);
    return buffer.duration;
  }

  /** Puts a decoded buffer in a slot (load() does this; tests call it directly). */
  setBuffer(key: string, buffer: AudioBuffer): void {
    const position = this.position();
    const slot = this.slots.get(key) ?? { buffer: null, gain: null, source: null };
    slot.buffer = buffer;
    this.slots.set(key, slot);
    if (this.playing) this.startAt(Math.min(position, this.duration()));
    else this.pausedAt = Math.min(position, this.duration());
  }

  /** Forgets an option (its buffer is freed); playback of the others goes on. */
  drop(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    const position = this.position();
    const reported = slot.source !== null && slot.source === this.reporter;
    if (slot.source) {
      slot.source.onended = null;
      stopNow(slot.source);
    }
    slot.gain?.disconnect();
    this.slots.delete(key);
    if (this.buffered().length === 0) {
      const wasPlaying = this.playing;
      this.generation++;
      this.playing = false;
      this.pausedAt = 0;
      if (wasPlaying) this.options.onStopped?.();
    } else if (this.playing && reported) {
      // The dropped source was the one reporting the end: start the rest afresh.
      this.startAt(position);
    } else if (!this.playing) {
      this.pausedAt = Math.min(position, this.duration());
    }
  }

  has(key: string): boolean {
    return this.slots.get(key)?.buffer != null;
  }

  /** Seconds: the longest loaded option (they are all the same length). */
  duration(): number {
    return Math.max(0, ...this.buffered().map(([, slot]) => slot.buffer?.duration ?? 0));
  }

  isPlaying(): boolean {
    return this.playing;
  }

  /** The position in seconds, the same for every option. */
  position(): number {
    if (!this.playing || !this.context) return this.pausedAt;
    return transportPosition({
      startOffset: this.startOffset,
      elapsed: this.context.currentTime - this.startedAt,
      duration: this.duration(),
      loop: false,
      region: null,
    });
  }

  /** Makes an option the one heard; the others keep running silently. */
  setActive(key: string | null): void {
    this.active = key;
    this.applyGains();
  }

  /**
   * Lets the audio context run: called from the listener's click itself, as some browsers (iOS
   * Safari) allow sound only when it is started within a gesture.
   */
  resume(): void {
    if (this.disposed) return;
    const context = this.audio();
    if (context.state === 'suspended') void context.resume();
  }

  play(): void {
    if (this.buffered().length === 0) return;
    const context = this.audio();
    if (context.state === 'suspended') void context.resume();
    this.startAt(playStartOffset(this.position(), this.duration(), null, false));
  }

  pause(): void {
    if (!this.playing) return;
    this.pausedAt = this.position();
    this.playing = false;
    this.generation++;
    const context = this.context;
    const master = this.master;
    if (!context || !master) return;
    const now = context.currentTime;
    master.gain.cancelScheduledValues(now);
    master.gain.setValueAtTime(master.gain.value, now);
    master.gain.linearRampToValueAtTime(0, now + RAMP_SECONDS);
    for (const slot of this.slots.values()) {
      if (slot.source) slot.source.onended = null;
      slot.source?.stop(now + RAMP_SECONDS * 2);
      slot.source = null;
    }
  }

  /** Moves every option to a position (seconds), playing on if they were playing. */
  seek(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    const target = Math.min(seconds, this.duration());
    if (this.playing) this.startAt(target);
    else this.pausedAt = target;
  }

  dispose(): void {
    this.disposed = true;
    this.playing = false;
    this.generation++;
    for (const slot of this.slots.values()) {
      if (slot.source) {
        slot.source.onended = null;
        stopNow(slot.source);
      }
    }
    this.slots.clear();
    const context = this.context;
    this.context = null;
    this.master = null;
    if (context && context.state !== 'closed') void context.close();
  }

  private buffered(): [string, Slot][] {
    return [...this.slots.entries()].filter(([, slot]) => slot.buffer !== null);
  }

  private startAt(offset: number): void {
    const context = this.audio();
    const master = this.master;
    if (!master) return;
    for (const slot of this.slots.values()) {
      if (!slot.source) continue;
      slot.source.onended = null;
      stopNow(slot.source);
      slot.source = null;
    }
    const generation = ++this.generation;
    const duration = this.duration();
    const when = context.currentTime + START_LOOKAHEAD_SECONDS;
    let reporter: AudioBufferSourceNode | null = null;
    for (const [, slot] of this.buffered()) {
      if (!slot.buffer) continue;
      if (!slot.gain) {
        slot.gain = context.createGain();
        slot.gain.gain.value = 0;
        slot.gain.connect(master);
      }
      const source = context.createBufferSource();
      source.buffer = slot.buffer;
      source.connect(slot.gain);
      source.start(when, Math.min(offset, slot.buffer.duration));
      source.stop(when + Math.max(0, duration - offset));
      // The longest source reports the end for all of them.
      if (!reporter?.buffer || slot.buffer.duration > reporter.buffer.duration) reporter = source;
      slot.source = source;
    }
    if (reporter) reporter.onended = () => this.handleEnded(generation);
    this.reporter = reporter;
    master.gain.cancelScheduledValues(context.currentTime);
    master.gain.setValueAtTime(0, context.currentTime);
    master.gain.setValueAtTime(0, when);
    master.gain.linearRampToValueAtTime(1, when + RAMP_SECONDS);
    this.startedAt = when;
    this.startOffset = offset;
    this.playing = true;
    this.applyGains();
  }

  private handleEnded(generation: number): void {
    if (generation !== this.generation || !this.playing) return;
    this.pausedAt = this.duration();
    this.playing = false;
    for (const slot of this.slots.values()) slot.source = null;
    this.options.onStopped?.();
  }

  private applyGains(): void {
    const context = this.context;
    if (!context) return;
    const now = context.currentTime;
    for (const [key, slot] of this.slots) {
      if (!slot.gain) continue;
      const param = slot.gain.gain;
      param.cancelScheduledValues(now);
      param.setValueAtTime(param.value, now);
      param.linearRampToValueAtTime(key === this.active ? 1 : 0, now + RAMP_SECONDS);
    }
  }
}

function stopNow(source: AudioBufferSourceNode): void {
  try {
    source.stop();
  } catch {
    // Never started or already stopped: nothing to do.
  }
  source.disconnect();
}
