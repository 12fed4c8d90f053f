import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { resolveAudioSource, trackStreamUrl } from './audio-source';
import { initialStoreState, isSameTrack, isValidSeekTime, planPlayTrack } from './player-reducer';
import { createPlayerStore } from './player-store';
import { loadSavedVolume, saveVolume } from './player-storage';
import { useAudioElementEvents, type PendingLoad } from './use-audio-element-events';
import {
  AudioPlayerContext,
  type AudioPlayerApi,
  type AudioQuality,
  type PlayerQueue,
  type PlayerTrack,
  type PlayTrackOptions,
} from './use-audio-player';
import { useNextTrackWarmUp } from './use-next-track-warm-up';

/** Quality change: restart with the new URL, at the same position, after a short delay. */
const QUALITY_RESTART_DELAY_MS = 150;
/** 'Previous' further into a track than this goes back to its start instead. */
const PREVIOUS_RESTARTS_AFTER_SECONDS = 3;

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Owns the one `<audio>` element and the player every page shares. Its state lives in a store
 * (the reducer's) that the controls read at once, so clicks in one tick see each other; the
 * position lives apart, so the context's value does not change while music plays.
 */
export function AudioPlayerProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createPlayerStore({ ...initialStoreState, ...loadSavedVolume() }));
  const state = useSyncExternalStore(store.state.subscribe, store.state.get);
  const { dispatch } = store;
  const [audioElement, setAudioElement] = useState<HTMLAudioElement | null>(null);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  // A later load cancels an earlier one: the generation moves on and the request is aborted.
  const generationRef = useRef(0);
  const abortRef = useRef<AbortController | null>(null);
  const pendingLoadRef = useRef<PendingLoad | null>(null);

  const attachAudio = useCallback((element: HTMLAudioElement | null) => {
    audioRef.current = element;
    setAudioElement(element);
  }, []);

  /** Loads a track's source, to start at `startAt` seconds; a later call cancels this one. */
  const loadTrack = useCallback(
    async (track: PlayerTrack, shouldPlay: boolean, startAt: number) => {
      const audio = audioRef.current;
      if (!audio) return;
      const generation = ++generationRef.current;
      abortRef.current?.abort();
      const controller = new AbortController();
      abortRef.current = controller;
      const pending: PendingLoad = { startAt, sourceSet: false };
      pendingLoadRef.current = pending;
      const url = trackStreamUrl(track.audioUrl, store.state.get().quality);
      dispatch({ type: 'SET_LOADING', loading: true });
      try {
        const source = await resolveAudioSource(url, {
          signal: controller.signal,
          bypassAuth: track.bypassAuth,
          fallbackToDirectUrl: true,
        });
        if (generation !== generationRef.current) return;
        audio.src = source;
        pending.sourceSet = true;
        audio.load();
        if (shouldPlay) await audio.play();
      } catch (error) {
        if (generation !== generationRef.current || isAbortError(error)) return;
        console.error('Audio playback failed:', error);
        dispatch({ type: 'PAUSE' });
      } finally {
        if (generation === generationRef.current) {
          dispatch({ type: 'SET_SWITCHING_TRACK', switchingTrack: false });
        }
      }
    },
    [store, dispatch],
  );

  const startPlayback = useCallback(() => {
    const audio = audioRef.current;
    if (!audio || !store.state.get().currentTrack) return;
    audio.play()?.catch((error: unknown) => {
      if (isAbortError(error)) return;
      console.error('Audio playback failed:', error);
      dispatch({ type: 'PAUSE' });
    });
  }, [store, dispatch]);

  /** A play click; ignored while a track is switching. */
  const resume = useCallback(() => {
    if (!store.state.get().switchingTrack) startPlayback();
  }, [store, startPlayback]);

  const pause = useCallback(() => {
    audioRef.current?.pause();
  }, []);

  const seek = useCallback(
    (seconds: number) => {
      const audio = audioRef.current;
      if (!audio || !isValidSeekTime(seconds)) return;
      const pending = pendingLoadRef.current;
      // While a source loads, the element's duration is the previous one's: the load clamps.
      const duration = !pending && Number.isFinite(audio.duration) ? audio.duration : seconds;
      const target = Math.min(seconds, duration);
      if (pending) pending.startAt = target;
      audio.currentTime = target;
      store.setPosition(target);
    },
    [store],
  );

  const startTrack = useCallback(
    (track: PlayerTrack, options?: PlayTrackOptions) => {
      const audio = audioRef.current;
      const plan = planPlayTrack(
        { currentTrack: store.state.get().currentTrack, isPlaying: audio ? !audio.paused : false },
        track,
      );
      const requested = options?.startAt;
      const startAt = isValidSeekTime(requested) ? requested : undefined;
      if (plan === 'ignore') return;
      if (plan === 'switch') {
        audio?.pause();
        dispatch({ type: 'SET_SWITCHING_TRACK', switchingTrack: true });
        dispatch({ type: 'SET_TRACK', track, shouldPlay: options?.shouldPlay });
        store.setPosition(startAt ?? 0);
        void loadTrack(track, options?.shouldPlay ?? true, startAt ?? 0);
        return;
      }
      // The current track: it jumps to `startAt`, and plays on if it was paused.
      if (startAt !== undefined) seek(startAt);
      if (plan === 'resume' && options?.shouldPlay !== false) resume();
    },
    [store, dispatch, loadTrack, seek, resume],
  );

  const playTrack = useCallback(
    (track: PlayerTrack, options?: PlayTrackOptions) => {
      const { queue } = store.state.get();
      // Something outside the list being played: the list ends here.
      if (queue && !isSameTrack(queue.tracks[queue.index] ?? null, track)) {
        dispatch({ type: 'SET_QUEUE', queue: null });
      }
      startTrack(track, options);
    },
    [store, dispatch, startTrack],
  );

  /** Plays item `index` of the list; false when there is no such item. */
  const playQueueItem = useCallback(
    (list: PlayerQueue, index: number, options?: PlayTrackOptions) => {
      const track = list.tracks[index];
      if (!track) return false;
      dispatch({ type: 'SET_QUEUE', queue: { tracks: list.tracks, index } });
      startTrack(track, options);
      return true;
    },
    [dispatch, startTrack],
  );

  const playQueue = useCallback(
    (tracks: PlayerTrack[], startIndex = 0, options?: PlayTrackOptions) => {
      if (tracks.length === 0) return;
      playQueueItem({ tracks: [...tracks], index: startIndex }, startIndex, options);
    },
    [playQueueItem],
  );

  const next = useCallback(() => {
    const { queue } = store.state.get();
    if (queue) playQueueItem(queue, queue.index + 1);
  }, [store, playQueueItem]);

  const previous = useCallback(() => {
    const audio = audioRef.current;
    const { queue } = store.state.get();
    if (
      audio &&
      (!queue || queue.index === 0 || audio.currentTime > PREVIOUS_RESTARTS_AFTER_SECONDS)
    ) {
      seek(0);
      return;
    }
    if (queue) playQueueItem(queue, queue.index - 1);
  }, [store, seek, playQueueItem]);

  const onEnded = useCallback(() => {
    const { queue } = store.state.get();
    return queue ? playQueueItem(queue, queue.index + 1) : false;
  }, [store, playQueueItem]);

  const togglePlay = useCallback(() => {
    const audio = audioRef.current;
    const { currentTrack, switchingTrack } = store.state.get();
    if (!audio || !currentTrack || switchingTrack) return;
    if (audio.paused) startPlayback();
    else audio.pause();
  }, [store, startPlayback]);

  const skip = useCallback(
    (offset: number) => {
      const audio = audioRef.current;
      if (!audio || !Number.isFinite(offset)) return;
      const duration = Number.isFinite(audio.duration) ? audio.duration : 0;
      seek(Math.min(duration, Math.max(0, audio.currentTime + offset)));
    },
    [seek],
  );

  const setVolume = useCallback(
    (volume: number) => {
      dispatch({ type: 'SET_VOLUME', volume });
      // Raising the volume from silence is a request to hear it again.
      if (volume > 0 && store.state.get().muted) dispatch({ type: 'SET_MUTED', muted: false });
    },
    [store, dispatch],
  );

  const setMuted = useCallback(
    (muted: boolean) => dispatch({ type: 'SET_MUTED', muted }),
    [dispatch],
  );

  const setLoop = useCallback((loop: boolean) => dispatch({ type: 'SET_LOOP', loop }), [dispatch]);

  const setQuality = useCallback(
    (quality: AudioQuality) => {
      const { quality: before, currentTrack: track } = store.state.get();
      if (quality === before) return;
      dispatch({ type: 'SET_QUALITY', quality });
      const audio = audioRef.current;
      if (!audio || !track || !audio.currentSrc) return;
      const position = pendingLoadRef.current?.startAt ?? audio.currentTime;
      const wasPlaying = !audio.paused;
      setTimeout(() => {
        // A different track started meanwhile: it already uses the new quality.
        if (store.state.get().currentTrack !== track) return;
        void loadTrack(track, wasPlaying, position);
      }, QUALITY_RESTART_DELAY_MS);
    },
    [store, dispatch, loadTrack],
  );

  useAudioElementEvents(audioElement, state.isPlaying, {
    store,
    pendingLoad: pendingLoadRef,
    onEnded,
  });
  useNextTrackWarmUp(store, state);

  useEffect(() => {
    if (!audioElement) return;
    audioElement.volume = state.volume;
    audioElement.muted = state.muted;
    saveVolume({ volume: state.volume, muted: state.muted });
  }, [audioElement, state.volume, state.muted]);

  useEffect(() => {
    if (audioElement) audioElement.playbackRate = state.playbackRate;
  }, [audioElement, state.playbackRate]);

  useEffect(() => {
    if (audioElement) audioElement.loop = state.loop;
  }, [audioElement, state.loop]);

  // A pending load must not outlive the provider.
  useEffect(() => () => abortRef.current?.abort(), []);

  const isCurrent = useCallback(
    (track: Partial<PlayerTrack>) => isSameTrack(state.currentTrack, track),
    [state.currentTrack],
  );

  const api = useMemo<AudioPlayerApi>(() => {
    const { queue, loop, quality, ...playerState } = state;
    return {
      state: playerState,
      position: store.position,
      playTrack,
      playQueue,
      queue,
      next,
      previous,
      pause,
      resume,
      togglePlay,
      seek,
      isCurrent,
      skip,
      setVolume,
      setMuted,
      loop,
      setLoop,
      quality,
      setQuality,
      audioElement,
    };
  }, [
    state,
    store,
    playTrack,
    playQueue,
    next,
    previous,
    pause,
    resume,
    togglePlay,
    seek,
    isCurrent,
    skip,
    setVolume,
    setMuted,
    setLoop,
    setQuality,
    audioElement,
  ]);

  return (
    <AudioPlayerContext value={api}>
      {children}
      <audio ref={attachAudio} preload="metadata" hidden />
    </AudioPlayerContext>
  );
}
