import type { BlindOption } from '@takes/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { sameOriginPath } from '../../../lib/same-origin';
import { useAudioPlayer } from '../../player/use-audio-player';
import { BlindEngine } from './blind-engine';

export type OptionLoad =
  | { status: 'loading' }
  | { status: 'ready'; duration: number }
  | { status: 'error'; message: string };

export interface BlindPlayer {
  options: readonly BlindOption[];
  /** The letter heard (or to be heard on Play). */
  active: string | null;
  playing: boolean;
  /** Whether the audio is asked for now (a page with two parts keeps one part's only). */
  engaged: boolean;
  loading: boolean;
  /** The first load that failed, in words. */
  error: string | null;
  /** Seconds (the options are all as long). */
  duration: number | null;
  /** 'Play X': X is heard from the current position, playing if it was not. */
  playLetter: (letter: string) => void;
  togglePlay: () => void;
  pause: () => void;
  seek: (seconds: number) => void;
  /** The live position in seconds. */
  position: () => number;
}

export interface BlindPlayerOptions {
  /** False: no audio is kept (the buffers are freed); a letter or Play asks for it again. */
  engaged: boolean;
  onEngage: () => void;
  /** The test's length as the page says, until the audio is decoded. */
  knownDuration: number | null;
}

const LOAD_FAILED = 'The audio could not be loaded. Reload the page to try again.';

function loadFailure(error: unknown): string {
  return error instanceof Error && error.message.startsWith('The audio')
    ? error.message
    : LOAD_FAILED;
}

/**
 * One transport over a set of lettered options: every option decoded on one audio clock
 * (BlindEngine), so switching letters keeps the position. Options that leave the set (an ABX
 * trial's X once answered) are dropped; new ones are fetched and join in step.
 */
export function useBlindPlayer(
  options: readonly BlindOption[],
  { engaged, onEngage, knownDuration }: BlindPlayerOptions,
): BlindPlayer {
  const player = useAudioPlayer();
  const [engine, setEngine] = useState<BlindEngine | null>(null);
  const [loads, setLoads] = useState<Record<string, OptionLoad>>({});
  const [playing, setPlaying] = useState(false);
  const [active, setActive] = useState<string | null>(options[0]?.letter ?? null);
  const [wantPlay, setWantPlay] = useState(false);
  const controllers = useRef(new Map<string, AbortController>());

  // A letter that left the set (the answered trial's X): back to the first, without a jump.
  if (options.length > 0 && !options.some((option) => option.letter === active)) {
    setActive(options[0]?.letter ?? null);
  }

  // One engine (one AudioContext) while engaged; closed, its buffers freed, when not.
  useEffect(() => {
    if (!engaged) return;
    const created = new BlindEngine({ onStopped: () => setPlaying(false) });
    const pending = controllers.current;
    setEngine(created);
    return () => {
      for (const controller of pending.values()) controller.abort();
      pending.clear();
      created.dispose();
      setEngine(null);
      setLoads({});
      setPlaying(false);
      setWantPlay(false);
    };
  }, [engaged]);

  // Each option's audio is fetched and decoded once; options gone from the set are dropped.
  const optionsKey = options.map((option) => `${option.id}\n${option.audio_url}`).join('\n');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the options as their ids and urls
  const stableOptions = useMemo(() => options, [optionsKey]);
  useEffect(() => {
    if (!engine) return;
    const pending = controllers.current;
    const wanted = new Set(stableOptions.map((option) => option.id));
    for (const [id, controller] of pending) {
      if (wanted.has(id)) continue;
      controller.abort();
      pending.delete(id);
      engine.drop(id);
      setLoads(({ [id]: _gone, ...rest }) => rest);
    }
    for (const option of stableOptions) {
      if (pending.has(option.id)) continue;
      const controller = new AbortController();
      pending.set(option.id, controller);
      const url = sameOriginPath(option.audio_url);
      const set = (load: OptionLoad) => {
        if (!controller.signal.aborted) setLoads((current) => ({ ...current, [option.id]: load }));
      };
      if (!url) {
        set({ status: 'error', message: LOAD_FAILED });
        continue;
      }
      set({ status: 'loading' });
      engine.load(option.id, url, controller.signal).then(
        (duration) => set({ status: 'ready', duration }),
        (error: unknown) => set({ status: 'error', message: loadFailure(error) }),
      );
    }
  }, [engine, stableOptions]);

  const activeId = options.find((option) => option.letter === active)?.id ?? null;
  useEffect(() => engine?.setActive(activeId), [engine, activeId]);

  // Play pressed before the letter's audio arrived: it starts once it has.
  const activeReady = activeId !== null && loads[activeId]?.status === 'ready';
  useEffect(() => {
    if (!wantPlay || !engine || !activeReady) return;
    setWantPlay(false);
    engine.play();
    setPlaying(engine.isPlaying());
  }, [wantPlay, engine, activeReady]);

  // One thing plays at a time: the test pauses the global player, and the other way round.
  const pauseGlobal = player.pause;
  const globalPlaying = player.state.isPlaying;
  const globalPlayingRef = useRef(globalPlaying);
  useEffect(() => {
    const started = globalPlaying && !globalPlayingRef.current;
    globalPlayingRef.current = globalPlaying;
    if (started && engine?.isPlaying()) {
      engine.pause();
      setPlaying(false);
    }
  }, [globalPlaying, engine]);

  /** Plays the option with this id: at once when its audio is here, else once it arrives. */
  const start = useCallback(
    (id: string | null) => {
      if (globalPlayingRef.current) pauseGlobal();
      if (!engine) {
        if (!engaged) onEngage();
        setWantPlay(true);
        return;
      }
      // Within the click, so that browsers strict about sound let the context run.
      engine.resume();
      if (id !== null && engine.has(id)) {
        engine.play();
        setPlaying(engine.isPlaying());
      } else setWantPlay(true);
    },
    [engine, engaged, onEngage, pauseGlobal],
  );

  const playLetter = useCallback(
    (letter: string) => {
      setActive(letter);
      const id = options.find((option) => option.letter === letter)?.id ?? null;
      engine?.setActive(id);
      if (!engine?.isPlaying()) start(id);
    },
    [engine, options, start],
  );

  const pause = useCallback(() => {
    setWantPlay(false);
    engine?.pause();
    setPlaying(false);
  }, [engine]);

  const togglePlay = useCallback(() => {
    if (playing || wantPlay) pause();
    else start(activeId);
  }, [playing, wantPlay, pause, start, activeId]);

  const seek = useCallback((seconds: number) => engine?.seek(seconds), [engine]);
  const position = useCallback(() => engine?.position() ?? 0, [engine]);

  const states = options.map((option) => loads[option.id]);
  const failed = states.find((load) => load?.status === 'error');
  const decoded = states.flatMap((load) => (load?.status === 'ready' ? [load.duration] : []));
  return {
    options,
    active,
    playing: playing || wantPlay,
    engaged,
    loading: engaged && states.some((load) => load === undefined || load.status === 'loading'),
    error: failed?.status === 'error' ? failed.message : null,
    duration: decoded.length > 0 ? Math.max(...decoded) : knownDuration,
    playLetter,
    togglePlay,
    pause,
    seek,
    position,
  };
}
