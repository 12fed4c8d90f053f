import { useCallback, useEffect, useState } from 'react';
import { useAudioPlayer, usePlayerPosition, type PlayerTrack } from '../player/use-audio-player';
import { useSeekToTime } from '../comments/use-seek-to-time';
import type { TimeRange } from './review-waveform';

/**
 * Plays a passage of the track: from its start (starting the track first when another plays),
 * pausing when the player passes its end. Seeking elsewhere or another track lets go of it.
 */
export function usePlayRange(track: PlayerTrack | null): {
  playRange: (range: TimeRange) => void;
  playing: TimeRange | null;
} {
  const player = useAudioPlayer();
  const seekTo = useSeekToTime(track);
  const [playing, setPlaying] = useState<TimeRange | null>(null);
  const current = track !== null && player.isCurrent(track);
  // Followed only while a passage of the current track plays.
  const currentTime = usePlayerPosition(current && playing !== null);
  const { pause } = player;

  useEffect(() => {
    if (!playing || !current) return;
    if (currentTime >= playing.end) {
      pause();
      setPlaying(null);
    } else if (currentTime < playing.start - 1) {
      // Sought away before the passage (the start's seek lands within a frame of it).
      setPlaying(null);
    }
  }, [playing, current, currentTime, pause]);

  const playRange = useCallback(
    (range: TimeRange) => {
      setPlaying(range);
      seekTo(range.start);
    },
    [seekTo],
  );
  return { playRange, playing };
}
