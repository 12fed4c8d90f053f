// The player's shared types, apart from both the reducer and the hook so neither imports the other.
import type { AudioQualityName } from '@takes/contract';

/** Something the global player can play: a version's stream, or any audio URL. */
export interface PlayerTrack {
  id: string;
  title: string;
  artist?: string;
  /** For a version: `/api/versions/{id}/stream`; the player adds the quality parameter itself. */
  audioUrl: string;
  versionId?: string;
  projectId?: string;
  versionNumber?: number;
  /** Shown as the album in the operating system's media controls (the project name). */
  album?: string;
  sourceUrl?: string;
  /** false: the caller may not create share links for it, so the player offers no share button. */
  shareable?: boolean;
  /** Skip the authenticated preflight and load the URL directly. */
  bypassAuth?: boolean;
  coverArt?: string;
  /** The stored waveform overview (0..1); the player never decodes audio to draw it. */
  peaks?: number[];
  duration?: number | null;
}

/**
 * The global player's state, apart from the position: what changes when a track starts, stops or
 * loads, or a setting changes; never ten times a second (see `PlayerPosition`).
 */
export interface PlayerState {
  currentTrack: PlayerTrack | null;
  isPlaying: boolean;
  duration: number;
  volume: number;
  muted: boolean;
  playbackRate: number;
  loading: boolean;
  switchingTrack: boolean;
}

/** Quality tiers: original, high (320k), standard (128k); 'auto' picks standard on mobile, high on desktop. */
export type AudioQuality = 'auto' | AudioQualityName;

export interface PlayTrackOptions {
  /** Start playing once loaded (default true). */
  shouldPlay?: boolean;
  /** Seconds from the start: where the track starts (or, if it is the current one, jumps to). */
  startAt?: number;
}

/**
 * The playing position, apart from the player's state so that only what shows it re-renders as
 * it moves (about every 100 ms while playing). Read it with `usePlayerPosition`; read it once, in
 * a click handler, with `get`.
 */
export interface PlayerPosition {
  /** Seconds into the current track. */
  get: () => number;
  /** Calls `listener` whenever the position changes; answers the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
}

/** A list being played in order (a collection's 'Play all'): the tracks and the one playing. */
export interface PlayerQueue {
  tracks: PlayerTrack[];
  index: number;
}

export interface AudioPlayerApi {
  state: PlayerState;
  /** The playing position (changes without changing anything else here). */
  position: PlayerPosition;
  /**
   * Plays one track, from `startAt` if given (the current track jumps there); a track outside
   * the list being played ends that list.
   */
  playTrack: (track: PlayerTrack, options?: PlayTrackOptions) => void;
  /** Plays `tracks` in order from `startIndex`, going on to the next when one ends. */
  playQueue: (tracks: PlayerTrack[], startIndex?: number, options?: PlayTrackOptions) => void;
  /** The list being played, or null. */
  queue: PlayerQueue | null;
  /** The next track of the list (nothing at its end). */
  next: () => void;
  /** Back to the start of this track after 3 s, else the previous track of the list. */
  previous: () => void;
  pause: () => void;
  resume: () => void;
  togglePlay: () => void;
  /** Seconds from the start; negative or non-numeric values are ignored. */
  seek: (seconds: number) => void;
  /** Same id, same URL or same versionId as the current track. */
  isCurrent: (track: Partial<PlayerTrack>) => boolean;
  /** Skip by a number of seconds, clamped to 0..duration. */
  skip: (seconds: number) => void;
  setVolume: (volume: number) => void;
  setMuted: (muted: boolean) => void;
  loop: boolean;
  setLoop: (loop: boolean) => void;
  quality: AudioQuality;
  setQuality: (quality: AudioQuality) => void;
  /** The one `<audio>` element, for the waveform to follow. */
  audioElement: HTMLAudioElement | null;
}
