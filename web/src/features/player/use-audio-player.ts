import { createContext, useContext } from 'react';
import type { AudioPlayerApi } from './player-types';

export type {
  AudioPlayerApi,
  AudioQuality,
  PlayerQueue,
  PlayerState,
  PlayerTrack,
  PlayTrackOptions,
} from './player-types';

export const AudioPlayerContext = createContext<AudioPlayerApi | null>(null);

/** The global player; every page inside the layout can use it. */
export function useAudioPlayer(): AudioPlayerApi {
  const player = useContext(AudioPlayerContext);
  if (!player) throw new Error('useAudioPlayer must be used within an AudioPlayerProvider');
  return player;
}
