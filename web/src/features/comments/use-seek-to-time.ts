import { useCallback } from 'react';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';

/**
 * Seeks the global player to a time of `track` (a comment's): the current track jumps there, any
 * other starts there (the player seeks once its source has loaded).
 */
export function useSeekToTime(track: PlayerTrack | null): (seconds: number) => void {
  const { playTrack } = useAudioPlayer();
  return useCallback(
    (seconds: number) => {
      if (track) playTrack(track, { startAt: seconds });
    },
    [track, playTrack],
  );
}
