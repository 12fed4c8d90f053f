import { useCallback, useEffect, useRef } from 'react';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';

/** Seek delay after starting a track that was not playing. */
export const SEEK_AFTER_START_MS = 300;

/**
 * Seeks the global player to a comment's time. If the comment's version is not the current
 * track it is started first and the seek follows about 300 ms later.
 */
export function useSeekToTime(track: PlayerTrack | null): (seconds: number) => void {
  const { isCurrent, playTrack, seek, resume, state, audioElement } = useAudioPlayer();
  const cancelRef = useRef<(() => void) | null>(null);
  useEffect(() => () => cancelRef.current?.(), []);
  const isPlaying = state.isPlaying;

  return useCallback(
    (seconds: number) => {
      if (!track) return;
      cancelRef.current?.();
      cancelRef.current = null;
      if (isCurrent(track)) {
        seek(seconds);
        if (!isPlaying) resume();
        return;
      }
      playTrack(track, { shouldPlay: true });
      // Loading a new source resets the position; if its metadata arrives after the delay,
      // seek again then so the jump is not lost on a slow connection.
      const onMetadata = () => seek(seconds);
      audioElement?.addEventListener('loadedmetadata', onMetadata, { once: true });
      const timer = setTimeout(() => seek(seconds), SEEK_AFTER_START_MS);
      cancelRef.current = () => {
        clearTimeout(timer);
        audioElement?.removeEventListener('loadedmetadata', onMetadata);
      };
    },
    [track, isCurrent, playTrack, seek, resume, isPlaying, audioElement],
  );
}
