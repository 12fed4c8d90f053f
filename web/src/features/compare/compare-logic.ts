// The rules of the A/B compare (levels, regions, keys) as plain functions, so they are tested
// without Web Audio. The engine (compare-engine.ts) and the panel only apply them.

export type Side = 'A' | 'B';

export function otherSide(side: Side): Side {
  return side === 'A' ? 'B' : 'A';
}

/** The 'Level' slider: 0 to 1 in steps of 0.01, full by default. */
export const LEVEL_MIN = 0;
export const LEVEL_MAX = 1;
export const LEVEL_STEP = 0.01;
export const LEVEL_DEFAULT = 1;
/** 'Region' inputs step by 0.1 s. */
export const REGION_STEP = 0.1;
/** With only a start entered, the region lasts this long (seconds). */
export const REGION_DEFAULT_LENGTH = 10;

export function clampLevel(level: number): number {
  if (!Number.isFinite(level)) return LEVEL_DEFAULT;
  return Math.min(LEVEL_MAX, Math.max(LEVEL_MIN, level));
}

// ---- Region ----

export interface Region {
  /** Seconds from the start of the transport. */
  start: number;
  end: number;
}

/** A region input's text as seconds: empty counts as 0, negatives become 0 (min 0). */
export function regionNumber(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return 0;
  return Math.max(0, value);
}

/**
 * The region the two inputs describe, or null when there is none: both empty, or an end not after
 * the start. Only a start entered: the end is start + 10 s. Only an end entered: the start is 0.
 * With a known transport length the end is cut to it, and a start at or past it means no region.
 */
export function normalizeRegion(
  startText: string,
  endText: string,
  duration?: number,
): Region | null {
  const hasStart = startText.trim() !== '';
  const hasEnd = endText.trim() !== '';
  if (!hasStart && !hasEnd) return null;
  const start = regionNumber(startText);
  let end = hasEnd ? regionNumber(endText) : start + REGION_DEFAULT_LENGTH;
  if (duration !== undefined && duration > 0) {
    if (start >= duration) return null;
    end = Math.min(end, duration);
  }
  if (end <= start) return null;
  return { start, end };
}

// ---- Transport ----

export interface TransportState {
  /** Where the sources were started, in seconds. */
  startOffset: number;
  /** Seconds of the audio clock since they started (negative before a scheduled start). */
  elapsed: number;
  /** Length of the transport: the longer of the two bounces (the shorter plays silence after its end). */
  duration: number;
  loop: boolean;
  region: Region | null;
}

/** The [start, end) the transport loops over or stops at. */
export function playRange(duration: number, region: Region | null): Region {
  if (!region) return { start: 0, end: duration };
  return { start: region.start, end: Math.min(region.end, duration) };
}

/**
 * The playback position in seconds. Loop on: wraps inside the region (or the whole transport),
 * as AudioBufferSourceNode's own loop does. Loop off: stops at the region end (or the end).
 */
export function transportPosition(state: TransportState): number {
  const raw = state.startOffset + Math.max(0, state.elapsed);
  const range = playRange(state.duration, state.region);
  if (raw < range.end) return raw;
  const length = range.end - range.start;
  if (!state.loop || length <= 0) return range.end;
  return range.start + ((raw - range.start) % length);
}

/**
 * Where playback starts. A region restarts from its start when asked (Play A / Play B) or
 * when the position lies outside it; at the end of the transport playback starts over.
 */
export function playStartOffset(
  position: number,
  duration: number,
  region: Region | null,
  restartFromRegion: boolean,
): number {
  const range = playRange(duration, region);
  if (region && (restartFromRegion || position < range.start || position >= range.end)) {
    return range.start;
  }
  if (position >= range.end || position < 0) return range.start;
  return position;
}

// ---- Loudness matching ----

export type LoudnessMatch =
  | { available: true; gainDb: Record<Side, number>; differenceLu: number }
  | { available: false; missing: Side[] };

/**
 * Gains that bring both sides to the quieter one's integrated loudness. Only the louder side is
 * turned down, never up, so matching cannot push anything into clipping.
 */
export function loudnessMatch(lufsA: number | null, lufsB: number | null): LoudnessMatch {
  const missing: Side[] = [];
  if (lufsA === null || !Number.isFinite(lufsA)) missing.push('A');
  if (lufsB === null || !Number.isFinite(lufsB)) missing.push('B');
  if (lufsA === null || lufsB === null || missing.length > 0) return { available: false, missing };
  const target = Math.min(lufsA, lufsB);
  return {
    available: true,
    gainDb: { A: target - lufsA, B: target - lufsB },
    differenceLu: lufsB - lufsA,
  };
}

export function dbToGain(db: number): number {
  return 10 ** (db / 20);
}

/** Linear gain per side from the match, or unity when matching is off or unavailable. */
export function matchGains(match: LoudnessMatch, enabled: boolean): Record<Side, number> {
  if (!enabled || !match.available) return { A: 1, B: 1 };
  return { A: dbToGain(match.gainDb.A), B: dbToGain(match.gainDb.B) };
}

/** The line under 'Match loudness', e.g. 'B is 3.2 LU louder than A — matched'. */
export function loudnessSummary(match: LoudnessMatch, enabled: boolean): string {
  if (!match.available) {
    const who = match.missing.length === 2 ? 'A and B have' : `${match.missing[0]} has`;
    return `Loudness matching unavailable: ${who} no measured loudness yet.`;
  }
  const size = Math.abs(match.differenceLu).toFixed(1);
  if (size === '0.0') return 'A and B are equally loud (0.0 LU).';
  const louder = match.differenceLu > 0 ? 'B' : 'A';
  return `${louder} is ${size} LU louder than ${otherSide(louder)} — ${enabled ? 'matched' : 'not matched'}`;
}

// ---- Keyboard ----

export type CompareKeyAction = 'toggle' | 'play-A' | 'play-B' | 'next-change' | 'previous-change';

interface KeyLike {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey?: boolean;
  repeat: boolean;
  target: EventTarget | null;
}

/** Input types that take no typing, so letter keys still reach the page from them. */
const NON_TEXT_INPUTS = new Set([
  'checkbox',
  'radio',
  'range',
  'button',
  'submit',
  'reset',
  'color',
]);

function isTextEntry(element: Element): boolean {
  if (element instanceof HTMLElement && element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(element.type);
}

/** Controls that act on Space themselves (buttons, links, checkboxes, sliders, fields). */
function usesSpace(element: Element): boolean {
  if (isTextEntry(element)) return true;
  if (['INPUT', 'BUTTON', 'A', 'SUMMARY'].includes(element.tagName)) return true;
  const role = element.getAttribute('role');
  return role !== null && ['button', 'checkbox', 'switch', 'slider', 'link', 'tab'].includes(role);
}

/**
 * What a key press does on the compare panel: Space toggles, a and b select and
 * play a side, n and Shift+n jump to the next and previous change. Nothing with a modifier, on a held-down repeat, or where focus needs the key itself.
 */
export function compareKeyAction(event: KeyLike): CompareKeyAction | null {
  if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return null;
  const target = event.target instanceof Element ? event.target : null;
  if (event.key === ' ') return target && usesSpace(target) ? null : 'toggle';
  const letter = event.key.toLowerCase();
  if (letter !== 'a' && letter !== 'b' && letter !== 'n') return null;
  if (target && isTextEntry(target)) return null;
  if (letter === 'n') return event.shiftKey ? 'previous-change' : 'next-change';
  return letter === 'a' ? 'play-A' : 'play-B';
}

/**
 * Where `n` (forward) or Shift+n (back) goes from `position`: the start of the next change, or of
 * the one before (skipping the change just jumped to, so pressing again keeps moving back).
 */
export function changeFrom(
  regions: readonly { start: number }[],
  position: number,
  direction: 'next' | 'previous',
): number | null {
  const starts = regions.map((r) => r.start).sort((x, y) => x - y);
  if (direction === 'next') return starts.find((start) => start > position + 0.25) ?? null;
  return starts.filter((start) => start < position - 0.75).pop() ?? null;
}

// ---- Display ----

/** m:ss.t for the compare's time readout (tenths matter when judging a switch). */
export function formatPosition(seconds: number): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const tenths = Math.floor(safe * 10);
  const minutes = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${minutes}:${rest.toFixed(1).padStart(4, '0')}`;
}

/**
 * An SVG path of the stored min/max overview (values -1..1) drawn into a width × height box:
 * one vertical bar per point, centred on the middle line.
 */
export function waveformPath(
  min: readonly number[],
  max: readonly number[],
  width: number,
  height: number,
): string {
  const count = Math.min(min.length, max.length);
  if (count === 0) return `M0 ${height / 2}H${width}`;
  const middle = height / 2;
  const step = width / count;
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const top = middle - Math.max(0, Math.min(1, Math.max(max[i] ?? 0, 0))) * middle;
    const bottom = middle - Math.max(-1, Math.min(0, min[i] ?? 0)) * middle;
    const x = +(i * step + step / 2).toFixed(2);
    // At least a hairline so silence still shows where the bounce is.
    const y1 = +Math.min(top, middle - 0.5).toFixed(2);
    const y2 = +Math.max(bottom, middle + 0.5).toFixed(2);
    parts.push(`M${x} ${y1}V${y2}`);
  }
  return parts.join('');
}
