import { useEffect, useRef, type RefObject } from 'react';
import type { PlayerStore } from './player-store';

/** The position is sampled at most every 100 ms. */
const TIME_SAMPLE_MS = 100;

/** A source being loaded: where it starts once its metadata is known. */
export interface PendingLoad {
  startAt: number;
  /** The element has the new source (until then, its events are the previous source's). */
  sourceSet: boolean;
}

interface AudioElementEventsOptions {
  store: PlayerStore;
  /** Set by the player while it loads a source; this hook starts it and clears it. */
  pendingLoad: RefObject<PendingLoad | null>;
  /** The end of a track: starts the next of the list and answers true, else answers false. */
  onEnded: () => boolean;
}

/**
 * Copies the element's time into the position; not while a source loads (the element's time is
 * then the previous source's, or 0, not the track's).
 */
function positionSampler(
  audio: HTMLAudioElement,
  { store, pendingLoad }: Pick<AudioElementEventsOptions, 'store' | 'pendingLoad'>,
  lastSample: RefObject<number>,
) {
  return (force: boolean) => {
    if (pendingLoad.current) return;
    const now = performance.now();
    if (!force && now - lastSample.current < TIME_SAMPLE_MS) return;
    lastSample.current = now;
    store.setPosition(audio.currentTime);
  };
}

/** The one `<audio>` element's events drive the player's state and position. */
export function useAudioElementEvents(
  audio: HTMLAudioElement | null,
  isPlaying: boolean,
  options: AudioElementEventsOptions,
) {
  const lastSample = useRef(0);
  const { store, pendingLoad, onEnded } = options;

  useEffect(() => {
    if (!audio) return;
    const { dispatch } = store;
    const sample = positionSampler(audio, { store, pendingLoad }, lastSample);
    /** A new source knows its duration: it starts where it was asked to. */
    const startLoadedSource = () => {
      const pending = pendingLoad.current;
      if (!pending?.sourceSet) return false;
      pendingLoad.current = null;
      if (pending.startAt > 0) {
        audio.currentTime = Number.isFinite(audio.duration)
          ? Math.min(pending.startAt, audio.duration)
          : pending.startAt;
      }
      return true;
    };
    const handlers: Record<string, () => void> = {
      play: () => dispatch({ type: 'PLAY' }),
      pause: () => dispatch({ type: 'PAUSE' }),
      durationchange: () => dispatch({ type: 'SET_DURATION', duration: audio.duration }),
      loadstart: () => dispatch({ type: 'SET_LOADING', loading: true }),
      loadedmetadata: () => {
        startLoadedSource();
        sample(true);
      },
      canplay: () => {
        // Browsers give the metadata first; should one not, the source starts here.
        if (startLoadedSource()) sample(true);
        dispatch({ type: 'SET_LOADING', loading: false });
      },
      // The end of a track: the next of the list being played, else stop.
      ended: () => {
        if (!onEnded()) dispatch({ type: 'PAUSE' });
      },
      error: () => {
        console.error('Audio element error:', audio.error);
        if (pendingLoad.current?.sourceSet) pendingLoad.current = null;
        dispatch({ type: 'PAUSE' });
        dispatch({ type: 'SET_LOADING', loading: false });
        dispatch({ type: 'SET_SWITCHING_TRACK', switchingTrack: false });
      },
      timeupdate: () => sample(false),
      seeked: () => sample(true),
    };
    for (const [name, handler] of Object.entries(handlers)) audio.addEventListener(name, handler);
    return () => {
      for (const [name, handler] of Object.entries(handlers)) {
        audio.removeEventListener(name, handler);
      }
    };
  }, [audio, store, pendingLoad, onEnded]);

  // Browsers fire timeupdate only about every 250 ms; sample more often while playing.
  useEffect(() => {
    if (!audio || !isPlaying) return;
    const sample = positionSampler(audio, { store, pendingLoad }, lastSample);
    const timer = setInterval(() => sample(true), TIME_SAMPLE_MS);
    return () => clearInterval(timer);
  }, [audio, isPlaying, store, pendingLoad]);
}
