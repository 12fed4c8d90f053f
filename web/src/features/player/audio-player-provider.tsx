import {
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { resolveAudioSource, trackStreamUrl } from './audio-source';
import {
  clearWarmUpElement,
  createWarmUpElement,
  isSameOriginUrl,
  trackToWarm,
} from './next-track-warmup';
import {
  initialPlayerState,
  isSameTrack,
  isValidSeekTime,
  planPlayTrack,
  playerReducer,
} from './player-reducer';
import { loadSavedVolume, saveVolume } from './player-storage';
import {
  AudioPlayerContext,
  type AudioPlayerApi,
  type AudioQuality,
  type PlayerQueue,
  type PlayerTrack,
  type PlayTrackOptions,
} from './use-audio-player';

/** Current time is sampled at most every 100 ms. */
const TIME_SAMPLE_MS = 100;
/** Quality change: restart with the new URL, at the same position, after a short delay. */
const QUALITY_RESTART_DELAY_MS = 150;
/** 'Previous' further into a track than this goes back to its start instead. */
const PREVIOUS_RESTARTS_AFTER_SECONDS = 3;

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Owns the one `<audio>` element and the player state every page shares. */
export function AudioPlayerProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(playerReducer, undefined, () => ({
    ...initialPlayerState,
    ...loadSavedVolume(),
  }));
  const [audioElement, setAudioElement] = useState<HTMLAudioElement | null>(null);
  const [loop, setLoop] = useState(false);
  const [quality, setQualityState] = useState<AudioQuality>('auto');
  const [queue, setQueueState] = useState<PlayerQueue | null>(null);

  const audioRef = useRef<HTMLAudioElement | null>(null);
  // Refs read by callbacks that must see changes made in the same tick (double clicks, quick switches).
  const trackRef = useRef<PlayerTrack | null>(null);
  const switchingRef = useRef(false);
  const qualityRef = useRef<AudioQuality>('auto');
  const generationRef = useRef(0);
  const abortRef = useRef<AbortController | null>(null);
  const pendingSeekRef = useRef<number | null>(null);
  const lastSampleRef = useRef(0);
  const queueRef = useRef<PlayerQueue | null>(null);
  /** What the audio element's 'ended' does: the next track of a list, if there is one. */
  const endedRef = useRef<() => boolean>(() => false);
  /** The hidden element that fetches the next track of a list before it starts (never played). */
  const warmUpRef = useRef<HTMLAudioElement | null>(null);

  const setQueue = useCallback((next: PlayerQueue | null) => {
    queueRef.current = next;
    setQueueState(next);
  }, []);

  const attachAudio = useCallback((element: HTMLAudioElement | null) => {
    audioRef.current = element;
    setAudioElement(element);
  }, []);

  const setSwitching = useCallback((switching: boolean) => {
    switchingRef.current = switching;
    dispatch({ type: 'SET_SWITCHING_TRACK', switchingTrack: switching });
  }, []);

  /** Loads a track's source; a later call cancels this one (generation counter + abort). */
  const loadTrack = useCallback(
    async (track: PlayerTrack, shouldPlay: boolean, startAt: number) => {
      const audio = audioRef.current;
      if (!audio) return;
      const generation = ++generationRef.current;
      abortRef.current?.abort();
      const controller = new AbortController();
      abortRef.current = controller;
      const url = trackStreamUrl(track.audioUrl, qualityRef.current);
      dispatch({ type: 'SET_LOADING', loading: true });
      try {
        const source = await resolveAudioSource(url, {
          signal: controller.signal,
          bypassAuth: track.bypassAuth,
          fallbackToDirectUrl: true,
        });
        if (generation !== generationRef.current) return;
        pendingSeekRef.current = startAt > 0 ? startAt : null;
        audio.src = source;
        audio.load();
        if (shouldPlay) await audio.play();
      } catch (error) {
        if (generation !== generationRef.current || isAbortError(error)) return;
        console.error('Audio playback failed:', error);
        dispatch({ type: 'PAUSE' });
      } finally {
        if (generation === generationRef.current) setSwitching(false);
      }
    },
    [setSwitching],
  );

  const startPlayback = useCallback(() => {
    const audio = audioRef.current;
    if (!audio || !trackRef.current) return;
    audio.play()?.catch((error: unknown) => {
      if (isAbortError(error)) return;
      console.error('Audio playback failed:', error);
      dispatch({ type: 'PAUSE' });
    });
  }, []);

  /** A play click; ignored while a track is switching. */
  const resume = useCallback(() => {
    if (!switchingRef.current) startPlayback();
  }, [startPlayback]);

  const pause = useCallback(() => {
    audioRef.current?.pause();
  }, []);

  const startTrack = useCallback(
    (track: PlayerTrack, options?: PlayTrackOptions) => {
      const audio = audioRef.current;
      const plan = planPlayTrack(
        { currentTrack: trackRef.current, isPlaying: audio ? !audio.paused : false },
        track,
      );
      if (plan === 'ignore') return;
      if (plan === 'resume') {
        if (options?.shouldPlay !== false && !switchingRef.current) resume();
        return;
      }
      audio?.pause();
      setSwitching(true);
      trackRef.current = track;
      dispatch({ type: 'SET_TRACK', track, shouldPlay: options?.shouldPlay });
      void loadTrack(track, options?.shouldPlay ?? true, 0);
    },
    [loadTrack, resume, setSwitching],
  );

  const playTrack = useCallback(
    (track: PlayerTrack, options?: PlayTrackOptions) => {
      const list = queueRef.current;
      // Something outside the list being played: the list ends here.
      if (list && !isSameTrack(list.tracks[list.index] ?? null, track)) setQueue(null);
      startTrack(track, options);
    },
    [setQueue, startTrack],
  );

  /** Plays item `index` of the list; false when there is no such item. */
  const playQueueItem = useCallback(
    (list: PlayerQueue, index: number) => {
      const track = list.tracks[index];
      if (!track) return false;
      setQueue({ tracks: list.tracks, index });
      startTrack(track);
      return true;
    },
    [setQueue, startTrack],
  );

  const playQueue = useCallback(
    (tracks: PlayerTrack[], startIndex = 0) => {
      if (tracks.length === 0) return;
      playQueueItem({ tracks: [...tracks], index: startIndex }, startIndex);
    },
    [playQueueItem],
  );

  const next = useCallback(() => {
    const list = queueRef.current;
    if (list) playQueueItem(list, list.index + 1);
  }, [playQueueItem]);

  const previous = useCallback(() => {
    const audio = audioRef.current;
    const list = queueRef.current;
    if (
      audio &&
      (!list || list.index === 0 || audio.currentTime > PREVIOUS_RESTARTS_AFTER_SECONDS)
    ) {
      audio.currentTime = 0;
      dispatch({ type: 'SET_CURRENT_TIME', currentTime: 0 });
      return;
    }
    if (list) playQueueItem(list, list.index - 1);
  }, [playQueueItem]);

  useEffect(() => {
    endedRef.current = () => {
      const list = queueRef.current;
      return list ? playQueueItem(list, list.index + 1) : false;
    };
  }, [playQueueItem]);

  const togglePlay = useCallback(() => {
    const audio = audioRef.current;
    if (!audio || !trackRef.current || switchingRef.current) return;
    if (audio.paused) startPlayback();
    else audio.pause();
  }, [startPlayback]);

  const seek = useCallback((seconds: number) => {
    const audio = audioRef.current;
    if (!audio || !isValidSeekTime(seconds)) return;
    const duration = Number.isFinite(audio.duration) ? audio.duration : seconds;
    const target = Math.min(seconds, duration);
    audio.currentTime = target;
    dispatch({ type: 'SET_CURRENT_TIME', currentTime: target });
  }, []);

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
      if (volume > 0 && state.muted) dispatch({ type: 'SET_MUTED', muted: false });
    },
    [state.muted],
  );

  const setMuted = useCallback((muted: boolean) => {
    dispatch({ type: 'SET_MUTED', muted });
  }, []);

  const setQuality = useCallback(
    (next: AudioQuality) => {
      if (next === qualityRef.current) return;
      qualityRef.current = next;
      setQualityState(next);
      const audio = audioRef.current;
      const track = trackRef.current;
      if (!audio || !track || !audio.currentSrc) return;
      const position = audio.currentTime;
      const wasPlaying = !audio.paused;
      setTimeout(() => {
        // A different track started meanwhile: it already uses the new quality.
        if (trackRef.current !== track) return;
        void loadTrack(track, wasPlaying, position);
      }, QUALITY_RESTART_DELAY_MS);
    },
    [loadTrack],
  );

  // Audio element events: they drive the player's state.
  useEffect(() => {
    const audio = audioElement;
    if (!audio) return;
    const sampleTime = (force: boolean) => {
      const now = performance.now();
      if (!force && now - lastSampleRef.current < TIME_SAMPLE_MS) return;
      lastSampleRef.current = now;
      dispatch({ type: 'SET_CURRENT_TIME', currentTime: audio.currentTime });
    };
    const handlers: Record<string, () => void> = {
      play: () => dispatch({ type: 'PLAY' }),
      pause: () => dispatch({ type: 'PAUSE' }),
      durationchange: () => dispatch({ type: 'SET_DURATION', duration: audio.duration }),
      loadstart: () => dispatch({ type: 'SET_LOADING', loading: true }),
      loadedmetadata: () => {
        const target = pendingSeekRef.current;
        pendingSeekRef.current = null;
        if (target !== null) {
          audio.currentTime = Number.isFinite(audio.duration)
            ? Math.min(target, audio.duration)
            : target;
        }
        sampleTime(true);
      },
      canplay: () => dispatch({ type: 'SET_LOADING', loading: false }),
      // The end of a track: the next of the list being played, else stop.
      ended: () => {
        if (!endedRef.current()) dispatch({ type: 'PAUSE' });
      },
      error: () => {
        console.error('Audio element error:', audio.error);
        dispatch({ type: 'PAUSE' });
        dispatch({ type: 'SET_LOADING', loading: false });
        setSwitching(false);
      },
      timeupdate: () => sampleTime(false),
      seeked: () => sampleTime(true),
    };
    for (const [name, handler] of Object.entries(handlers)) audio.addEventListener(name, handler);
    return () => {
      for (const [name, handler] of Object.entries(handlers)) {
        audio.removeEventListener(name, handler);
      }
    };
  }, [audioElement, setSwitching]);

  // Browsers fire timeupdate only about every 250 ms; sample more often while playing.
  useEffect(() => {
    const audio = audioElement;
    if (!audio || !state.isPlaying) return;
    const timer = setInterval(() => {
      lastSampleRef.current = performance.now();
      dispatch({ type: 'SET_CURRENT_TIME', currentTime: audio.currentTime });
    }, TIME_SAMPLE_MS);
    return () => clearInterval(timer);
  }, [audioElement, state.isPlaying]);

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
    if (audioElement) audioElement.loop = loop;
  }, [audioElement, loop]);

  // A pending load must not outlive the provider.
  useEffect(() => () => abortRef.current?.abort(), []);

  // Near the end of a list's track, the next one is fetched by a hidden element with the very URL
  // the player will give its own element, so the switch at 'ended' is served from the browser's
  // cache instead of the network. One warm-up at a time.
  useEffect(() => {
    const element = createWarmUpElement();
    warmUpRef.current = element;
    return () => {
      warmUpRef.current = null;
      clearWarmUpElement(element);
    };
  }, []);

  const trackToFetch = trackToWarm({
    queue,
    currentTrack: state.currentTrack,
    isPlaying: state.isPlaying,
    switchingTrack: state.switchingTrack,
    loop,
    currentTime: state.currentTime,
    duration: state.duration,
  });
  const fetchUrl = trackToFetch ? trackStreamUrl(trackToFetch.audioUrl, quality) : null;
  const warmUrl = fetchUrl && isSameOriginUrl(fetchUrl) ? fetchUrl : null;
  const currentUrl = state.currentTrack
    ? trackStreamUrl(state.currentTrack.audioUrl, quality)
    : null;
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

  const isCurrent = useCallback(
    (track: Partial<PlayerTrack>) => isSameTrack(state.currentTrack, track),
    [state.currentTrack],
  );

  const api = useMemo<AudioPlayerApi>(
    () => ({
      state,
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
    }),
    [
      state,
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
      quality,
      setQuality,
      audioElement,
    ],
  );

  return (
    <AudioPlayerContext value={api}>
      {children}
      <audio ref={attachAudio} preload="metadata" hidden />
    </AudioPlayerContext>
  );
}
