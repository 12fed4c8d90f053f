import { isSameTrack } from './player-reducer';
import type { PlayerQueue, PlayerTrack } from './player-types';

/** The next track of a list is warmed once the current one is this close to its end. */
export const WARM_UP_BEFORE_END_SECONDS = 15;

export interface WarmUpInput {
  queue: PlayerQueue | null;
  currentTrack: PlayerTrack | null;
  isPlaying: boolean;
  switchingTrack: boolean;
  loop: boolean;
  currentTime: number;
  duration: number;
}

/**
 * The track whose audio to fetch ahead of time: the next one of the list being played, once the
 * current one plays within 15 s of its end (from its start when it is shorter). Nothing without a
 * list, at its last track, while paused, switching or looping (the end never comes), or while the
 * duration is unknown.
 */
export function trackToWarm(input: WarmUpInput): PlayerTrack | null {
  const { queue } = input;
  if (!queue || !input.isPlaying || input.switchingTrack || input.loop) return null;
  if (!isSameTrack(input.currentTrack, queue.tracks[queue.index] ?? null)) return null;
  const next = queue.tracks[queue.index + 1];
  if (!next?.audioUrl) return null;
  if (!(input.duration > 0) || !Number.isFinite(input.duration)) return null;
  return input.duration - input.currentTime <= WARM_UP_BEFORE_END_SECONDS ? next : null;
}

/** Warm-ups stay on this site: a URL on another origin is never requested ahead of time. */
export function isSameOriginUrl(url: string): boolean {
  if (typeof window === 'undefined') return false;
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** The hidden element that fetches the next track: never attached to the page, never played, muted. */
export function createWarmUpElement(): HTMLAudioElement {
  const element = document.createElement('audio');
  element.preload = 'auto';
  element.muted = true;
  element.volume = 0;
  element.dataset.playerWarmup = 'true';
  return element;
}

/** Drops a warm-up: no source, and load() so the element lets go of its request and buffer. */
export function clearWarmUpElement(element: HTMLAudioElement): void {
  if (!element.getAttribute('src')) return;
  element.removeAttribute('src');
  element.load();
}
