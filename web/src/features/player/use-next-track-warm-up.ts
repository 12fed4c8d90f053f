import { useEffect, useRef, useSyncExternalStore } from 'react';
import { trackStreamUrl } from './audio-source';
import {
  clearWarmUpElement,
  createWarmUpElement,
  isSameOriginUrl,
  trackToWarm,
} from './next-track-warmup';
import type { PlayerStoreState } from './player-reducer';
import type { PlayerStore } from './player-store';

/**
 * Near the end of a list's track, the next one is fetched by a hidden element with the very URL
 * the player will give its own element, so the switch at 'ended' is served from the browser's
 * cache instead of the network. One warm-up at a time.
 */
export function useNextTrackWarmUp(store: PlayerStore, state: PlayerStoreState) {
  const warmUpRef = useRef<HTMLAudioElement | null>(null);
  useEffect(() => {
    const element = createWarmUpElement();
    warmUpRef.current = element;
    return () => {
      warmUpRef.current = null;
      clearWarmUpElement(element);
    };
  }, []);

  // Follows the position, but re-renders only when the track to fetch changes.
  const trackToFetch = useSyncExternalStore(store.position.subscribe, () =>
    trackToWarm({ ...state, currentTime: store.position.get() }),
  );
  const { quality, currentTrack } = state;
  const fetchUrl = trackToFetch ? trackStreamUrl(trackToFetch.audioUrl, quality) : null;
  const warmUrl = fetchUrl && isSameOriginUrl(fetchUrl) ? fetchUrl : null;
  const currentUrl = currentTrack ? trackStreamUrl(currentTrack.audioUrl, quality) : null;
  // The player is starting a track: until it can play, a warm-up of that very URL is kept (the
  // browser may hand its data over), any other is dropped.
  const handingOver = state.isPlaying && (state.switchingTrack || state.loading);
  useEffect(() => {
    const element = warmUpRef.current;
    if (!element) return;
    const warming = element.getAttribute('src');
    if (warmUrl) {
      if (warming === warmUrl) return;
      element.src = warmUrl;
      element.load();
      return;
    }
    if (handingOver && warming !== null && warming === currentUrl) return;
    clearWarmUpElement(element);
  }, [warmUrl, currentUrl, handingOver]);
}
