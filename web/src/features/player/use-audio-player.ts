import { createContext, useContext, useSyncExternalStore } from 'react';
import type { AudioPlayerApi } from './player-types';

export type {
  AudioPlayerApi,
  AudioQuality,
  PlayerPosition,
  PlayerQueue,
  PlayerState,
  PlayerTrack,
  PlayTrackOptions,
} from './player-types';

/**
 * The player's controls and state. Its value changes when a track starts, stops or loads, or a
 * setting changes, never with the position: a list's rows do not re-render while music plays.
 */
export const AudioPlayerContext = createContext<AudioPlayerApi | null>(null);

/** The global player; every page inside the layout can use it. */
export function useAudioPlayer(): AudioPlayerApi {
  const player = useContext(AudioPlayerContext);
  if (!player) throw new Error('useAudioPlayer must be used within an AudioPlayerProvider');
  return player;
}

const atStart = () => 0;

/**
 * The playing position in seconds; the component re-renders as it moves (about every 100 ms
 * while playing). With `following` false it stays 0 and never re-renders for it (a track that is
 * not the current one).
 */
export function usePlayerPosition(following = true): number {
  const { position } = useAudioPlayer();
  return useSyncExternalStore(position.subscribe, following ? position.get : atStart);
}
