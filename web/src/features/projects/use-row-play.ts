import { useEffect, useRef, useState } from 'react';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';

const CLICK_DEBOUNCE_MS = 300;
const BUTTON_LOCK_MS = 100;

/**
 * Row play click: starts the track in the global player, or pauses it when it is
 * the one playing; clicks within 300 ms are ignored; the button is disabled for 100 ms and while
 * the player is busy switching or loading this track.
 */
export function useRowPlay(track: PlayerTrack) {
  const player = useAudioPlayer();
  const lastClick = useRef(0);
  const [locked, setLocked] = useState(false);
  const current = player.isCurrent(track);
  const playing = current && player.state.isPlaying;
  const busy = player.state.switchingTrack || (current && player.state.loading);

  useEffect(() => {
    if (!locked) return;
    const timer = setTimeout(() => setLocked(false), BUTTON_LOCK_MS);
    return () => clearTimeout(timer);
  }, [locked]);

  function onClick() {
    const now = Date.now();
    if (now - lastClick.current < CLICK_DEBOUNCE_MS) return;
    lastClick.current = now;
    setLocked(true);
    if (playing) player.pause();
    else player.playTrack(track);
  }

  return { current, playing, disabled: locked || busy, onClick };
}
