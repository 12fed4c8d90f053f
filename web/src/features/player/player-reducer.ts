import type { AudioQuality, PlayerQueue, PlayerState, PlayerTrack } from './player-types';

/** Everything the player keeps apart from the position: its state, the list, loop and quality. */
export interface PlayerStoreState extends PlayerState {
  queue: PlayerQueue | null;
  loop: boolean;
  quality: AudioQuality;
}

export type PlayerAction =
  | { type: 'PLAY' }
  | { type: 'PAUSE' }
  | { type: 'SET_DURATION'; duration: number }
  | { type: 'SET_LOADING'; loading: boolean }
  | { type: 'SET_TRACK'; track: PlayerTrack; shouldPlay?: boolean }
  | { type: 'CLEAR_TRACK' }
  | { type: 'SET_VOLUME'; volume: number }
  | { type: 'SET_MUTED'; muted: boolean }
  | { type: 'SET_PLAYBACK_RATE'; playbackRate: number }
  | { type: 'SET_SWITCHING_TRACK'; switchingTrack: boolean }
  | { type: 'SET_QUEUE'; queue: PlayerQueue | null }
  | { type: 'SET_LOOP'; loop: boolean }
  | { type: 'SET_QUALITY'; quality: AudioQuality };

export const DEFAULT_VOLUME = 0.8;

export const initialPlayerState: PlayerState = {
  currentTrack: null,
  isPlaying: false,
  duration: 0,
  volume: DEFAULT_VOLUME,
  muted: false,
  playbackRate: 1,
  loading: false,
  switchingTrack: false,
};

export const initialStoreState: PlayerStoreState = {
  ...initialPlayerState,
  queue: null,
  loop: false,
  quality: 'auto',
};

export function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return 0;
  return Math.min(1, Math.max(0, volume));
}

/** A usable seek target: a finite number of seconds, not negative. */
export function isValidSeekTime(seconds: unknown): seconds is number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0;
}

/** A track is current if it has the same id, the same URL or the same versionId. */
export function isSameTrack(
  current: PlayerTrack | null,
  candidate: Partial<PlayerTrack> | null | undefined,
): boolean {
  if (!current || !candidate) return false;
  if (candidate.id !== undefined && candidate.id === current.id) return true;
  if (candidate.audioUrl !== undefined && candidate.audioUrl === current.audioUrl) return true;
  return candidate.versionId !== undefined && candidate.versionId === current.versionId;
}

export function playerReducer(state: PlayerStoreState, action: PlayerAction): PlayerStoreState {
  switch (action.type) {
    case 'PLAY':
      return state.isPlaying ? state : { ...state, isPlaying: true };
    case 'PAUSE':
      return state.isPlaying ? { ...state, isPlaying: false } : state;
    case 'SET_DURATION': {
      const duration =
        Number.isFinite(action.duration) && action.duration > 0 ? action.duration : 0;
      return duration === state.duration ? state : { ...state, duration };
    }
    case 'SET_LOADING':
      return state.loading === action.loading ? state : { ...state, loading: action.loading };
    case 'SET_TRACK': {
      const changed = !isSameTrack(state.currentTrack, action.track);
      return {
        ...state,
        currentTrack: action.track,
        isPlaying: action.shouldPlay ?? true,
        duration: changed ? (action.track.duration ?? 0) : state.duration,
        loading: true,
      };
    }
    case 'CLEAR_TRACK':
      return {
        ...state,
        currentTrack: null,
        isPlaying: false,
        duration: 0,
        loading: false,
        switchingTrack: false,
      };
    case 'SET_VOLUME': {
      const volume = clampVolume(action.volume);
      return { ...state, volume, muted: volume === 0 ? true : state.muted };
    }
    case 'SET_MUTED':
      return { ...state, muted: action.muted };
    case 'SET_PLAYBACK_RATE':
      return Number.isFinite(action.playbackRate) && action.playbackRate > 0
        ? { ...state, playbackRate: action.playbackRate }
        : state;
    case 'SET_SWITCHING_TRACK':
      return state.switchingTrack === action.switchingTrack
        ? state
        : { ...state, switchingTrack: action.switchingTrack };
    case 'SET_QUEUE':
      return { ...state, queue: action.queue };
    case 'SET_LOOP':
      return { ...state, loop: action.loop };
    case 'SET_QUALITY':
      return { ...state, quality: action.quality };
  }
}

/** 'keep': the track is already playing; 'resume': it is loaded but paused. */
export type PlayTrackPlan = 'ignore' | 'keep' | 'resume' | 'switch';

/**
 * What a play request does given the player's state. A different
 * track always wins (it cancels a stale load); the switching guard applies to play clicks instead.
 */
export function planPlayTrack(
  state: Pick<PlayerState, 'currentTrack' | 'isPlaying'>,
  track: Partial<PlayerTrack> | null | undefined,
): PlayTrackPlan {
  if (!track?.audioUrl) return 'ignore';
  if (isSameTrack(state.currentTrack, track)) return state.isPlaying ? 'keep' : 'resume';
  return 'switch';
}
