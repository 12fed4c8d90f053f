import {
  playRange,
  playStartOffset,
  transportPosition,
  type Region,
  type Side,
} from './compare-logic';
import { readWithProgress } from './read-with-progress';

/** Gain changes (switching sides, levels, pausing) ramp over this long so they never click. */
const RAMP_SECONDS = 0.005;
/** Sources start this far ahead of the clock so both begin on the same sample, as scheduled. */
const START_LOOKAHEAD_SECONDS = 0.01;

const SIDES: readonly Side[] = ['A', 'B'];

export interface CompareEngineOptions {
  /** Makes the audio context on first use (not at construction, so a visit that never compares makes none). */
  createContext?: () => AudioContext;
  /** Playback stopped by itself: the end of the bounce or of the region with Loop off, or no audio left. */
  onStopped?: () => void;
}

interface SideState {
  buffer: AudioBuffer | null;
  /** The buffer padded with silence to the transport's length, so both sides loop and end together. */
  padded: AudioBuffer | null;
  gain: GainNode | null;
  source: AudioBufferSourceNode | null;
  level: number;
  matchGain: number;
}

/**
 * Gapless A/B playback on one audio clock. Each side is a buffer source into its own gain; both
 * sources always start together at the same offset, so switching sides only moves the gains and
 * the position cannot differ between them. Seeking, a new region or loop setting restarts both.
 *
 * Different lengths: the transport is as long as the longer bounce; the shorter one is padded
 * with silence, so past its end that side is silent rather than the position jumping.
 */
export class CompareEngine {
  private context: AudioContext | null = null;
  private master: GainNode | null = null;
  private readonly sides: Record<Side, SideState> = {
    A: emptySide(),
    B: emptySide(),
  };
  private active: Side = 'A';
  private loop = false;
  private region: Region | null = null;
  private playing = false;
  /** Audio-clock time the current sources start at, and their start offset in the transport. */
  private startedAt = 0;
  private startOffset = 0;
  /** The position while paused. */
  private pausedAt = 0;
  /** Bumped on every start and stop, so a stale source's `ended` event is ignored. */
  private generation = 0;
  private disposed = false;

  constructor(private readonly options: CompareEngineOptions = {}) {}

  private audio(): AudioContext {
    if (this.disposed) throw new Error('The compare engine was disposed');
    if (!this.context) {
      const context = this.options.createContext?.() ?? new AudioContext();
      this.master = context.createGain();
      this.master.connect(context.destination);
      this.context = context;
    }
    return this.context;
  }

  /** Downloads and decodes a side's audio; it joins playback in sync if the other side is playing. */
  async load(
    side: Side,
    url: string,
    signal?: AbortSignal,
    /** How much of the file has arrived (0..1, when its size is known); 1 when decoding starts. */
    onProgress?: (fetched: number) => void,
  ): Promise<number> {
    const context = this.audio();
    const response = await fetch(url, { credentials: 'same-origin', signal });
    if (!response.ok) throw new Error(`The audio could not be loaded (HTTP ${response.status})`);
    const data = await readWithProgress(response, onProgress);
    onProgress?.(1);
    const buffer = await context.decodeAudioData(data);
    signal?.throwIfAborted();
    if (this.disposed) return buffer.duration;
    this.setBuffer(side, buffer);
    return buffer.duration;
  }

  /** Puts a decoded buffer in a slot (load() does this; tests call it directly). */
  setBuffer(side: Side, buffer: AudioBuffer | null): void {
    const position = this.position();
    const state = this.sides[side];
    state.buffer = buffer;
    for (const each of SIDES) this.sides[each].padded = null;
    if (!this.hasAudio()) {
      const wasPlaying = this.playing;
      this.generation++;
      this.stopSources();
      this.playing = false;
      this.pausedAt = 0;
      if (wasPlaying) this.options.onStopped?.();
      return;
    }
    if (this.playing) this.startAt(Math.min(position, this.duration()));
    else this.pausedAt = Math.min(position, this.duration());
  }

  clear(side: Side): void {
    this.setBuffer(side, null);
  }

  hasAudio(side?: Side): boolean {
    if (side) return this.sides[side].buffer !== null;
    return SIDES.some((each) => this.sides[each].buffer !== null);
  }

  /** Seconds: the longer of the two loaded bounces. */
  duration(): number {
    return Math.max(0, ...SIDES.map((side) => this.sides[side].buffer?.duration ?? 0));
  }

  isPlaying(): boolean {
    return this.playing;
  }

  activeSide(): Side {
    return this.active;
  }

  /** The transport position in seconds, the same for both sides by construction. */
  position(): number {
    if (!this.playing || !this.context) return this.pausedAt;
    return transportPosition({
      startOffset: this.startOffset,
      elapsed: this.context.currentTime - this.startedAt,
      duration: this.duration(),
      loop: this.loop,
      region: this.region,
    });
  }

  /** Makes a side the one heard; the other keeps running silently, so the switch has no gap. */
  setActive(side: Side): void {
    this.active = side;
    this.applyGains();
  }

  setLevel(side: Side, level: number): void {
    this.sides[side].level = level;
    this.applyGains();
  }

  /** The loudness-matching gain (linear) of a side; 1 when matching is off. */
  setMatchGain(side: Side, gain: number): void {
    this.sides[side].matchGain = gain;
    this.applyGains();
  }

  setLoop(loop: boolean): void {
    if (loop === this.loop) return;
    const position = this.position();
    this.loop = loop;
    if (this.playing) this.startAt(position);
  }

  setRegion(region: Region | null): void {
    if (sameRegion(region, this.region)) return;
    const position = this.position();
    this.region = region;
    if (this.playing) this.startAt(playStartOffset(position, this.duration(), region, false));
  }

  /**
   * Starts (or restarts) both sides. `restartFromRegion`: jump to the region start when one is
   * set, as Play A / Play B do; otherwise playback goes on from the current position.
   */
  play({ restartFromRegion = false }: { restartFromRegion?: boolean } = {}): void {
    if (!this.hasAudio()) return;
    const context = this.audio();
    if (context.state === 'suspended') void context.resume();
    const offset = playStartOffset(
      this.position(),
      this.duration(),
      this.region,
      restartFromRegion,
    );
    this.startAt(offset);
  }

  pause(): void {
    if (!this.playing) return;
    this.pausedAt = this.position();
    this.playing = false;
    this.fadeOutAndStop();
  }

  /** Moves both sides to a position (seconds), playing on if they were playing. */
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
    this.stopSources();
    const context = this.context;
    this.context = null;
    this.master = null;
    if (context && context.state !== 'closed') void context.close();
  }

  private startAt(offset: number): void {
    const context = this.audio();
    const master = this.master;
    if (!master) return;
    this.stopSources();
    const generation = ++this.generation;
    const duration = this.duration();
    const range = playRange(duration, this.region);
    const when = context.currentTime + START_LOOKAHEAD_SECONDS;
    let first = true;
    for (const side of SIDES) {
      const buffer = this.paddedBuffer(side, context);
      if (!buffer) continue;
      const state = this.sides[side];
      if (!state.gain) {
        state.gain = context.createGain();
        state.gain.gain.value = 0;
        state.gain.connect(master);
      }
      const source = context.createBufferSource();
      source.buffer = buffer;
      if (this.loop) {
        source.loop = true;
        source.loopStart = range.start;
        source.loopEnd = range.end;
      }
      source.connect(state.gain);
      source.start(when, offset);
      if (!this.loop) source.stop(when + Math.max(0, range.end - offset));
      if (first) {
        // Both sources end on the same sample; one of them reports it.
        source.onended = () => this.handleEnded(generation);
        first = false;
      }
      state.source = source;
    }
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
    this.pausedAt = playRange(this.duration(), this.region).end;
    this.playing = false;
    this.sides.A.source = null;
    this.sides.B.source = null;
    this.options.onStopped?.();
  }

  private paddedBuffer(side: Side, context: AudioContext): AudioBuffer | null {
    const state = this.sides[side];
    if (!state.buffer) return null;
    const frames = Math.max(
      ...SIDES.map((each) => this.sides[each].buffer?.length ?? 0),
      state.buffer.length,
    );
    if (state.buffer.length === frames) return state.buffer;
    if (state.padded?.length !== frames) {
      const padded = context.createBuffer(
        state.buffer.numberOfChannels,
        frames,
        state.buffer.sampleRate,
      );
      for (let channel = 0; channel < state.buffer.numberOfChannels; channel++) {
        padded.copyToChannel(state.buffer.getChannelData(channel), channel);
      }
      state.padded = padded;
    }
    return state.padded;
  }

  private applyGains(): void {
    const context = this.context;
    if (!context) return;
    const now = context.currentTime;
    for (const side of SIDES) {
      const state = this.sides[side];
      if (!state.gain) continue;
      const target = side === this.active ? state.level * state.matchGain : 0;
      const param = state.gain.gain;
      param.cancelScheduledValues(now);
      param.setValueAtTime(param.value, now);
      param.linearRampToValueAtTime(target, now + RAMP_SECONDS);
    }
  }

  private fadeOutAndStop(): void {
    const context = this.context;
    const master = this.master;
    this.generation++;
    if (!context || !master) return;
    const now = context.currentTime;
    master.gain.cancelScheduledValues(now);
    master.gain.setValueAtTime(master.gain.value, now);
    master.gain.linearRampToValueAtTime(0, now + RAMP_SECONDS);
    for (const side of SIDES) {
      const state = this.sides[side];
      state.source?.stop(now + RAMP_SECONDS * 2);
      state.source = null;
    }
  }

  private stopSources(): void {
    for (const side of SIDES) {
      const state = this.sides[side];
      if (!state.source) continue;
      state.source.onended = null;
      try {
        state.source.stop();
      } catch {
        // Never started or already stopped: nothing to do.
      }
      state.source.disconnect();
      state.source = null;
    }
  }
}

function emptySide(): SideState {
  return { buffer: null, padded: null, gain: null, source: null, level: 1, matchGain: 1 };
}

function sameRegion(a: Region | null, b: Region | null): boolean {
  if (a === null || b === null) return a === b;
  return a.start === b.start && a.end === b.end;
}
