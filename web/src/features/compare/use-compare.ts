import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Bounce } from '@takes/contract';

/** What a compare slot holds: a repository bounce, or a project version shaped like one. */
export type CompareItem = Pick<
  Bounce,
  | 'id'
  | 'title'
  | 'filename'
  | 'created_at'
  | 'duration'
  | 'loudness'
  | 'waveform_json'
  | 'stream_url'
>;
import { useAudioPlayer } from '../player/use-audio-player';
import { CompareEngine } from './compare-engine';
import {
  clampLevel,
  dbToGain,
  LEVEL_DEFAULT,
  loudnessMatch,
  matchGains,
  normalizeRegion,
  otherSide,
  type LoudnessMatch,
  type Region,
  type Side,
} from './compare-logic';

export type SlotLoad =
  | { status: 'empty' }
  | { status: 'loading'; /** 0..1 of the file fetched, when its size is known. */ fetched?: number }
  | { status: 'decoding' }
  | { status: 'ready'; duration: number }
  | { status: 'error'; message: string };

export interface CompareState {
  slots: Record<Side, CompareItem | null>;
  loads: Record<Side, SlotLoad>;
  levels: Record<Side, number>;
  active: Side;
  playing: boolean;
  loop: boolean;
  regionStart: string;
  regionEnd: string;
  region: Region | null;
  matchLoudness: boolean;
  match: LoudnessMatch;
  /** Seconds: the longer of the two loaded bounces (0 before any is decoded). */
  duration: number;
  bothSet: boolean;
}

export interface CompareApi extends CompareState {
  setSlot: (side: Side, bounce: CompareItem) => void;
  clearSlot: (side: Side) => void;
  setLevel: (side: Side, level: number) => void;
  /** 'Play A' / 'Play B' and the a/b keys: that side is heard, from the region start if set. */
  playSide: (side: Side) => void;
  /** Space: the other side is heard from the same position. */
  toggle: () => void;
  pause: () => void;
  seek: (seconds: number) => void;
  setLoop: (loop: boolean) => void;
  setRegionStart: (text: string) => void;
  setRegionEnd: (text: string) => void;
  setMatchLoudness: (match: boolean) => void;
  /** The live transport position in seconds (read every animation frame, not rendered state). */
  position: () => number;
}

const EMPTY_LOADS: Record<Side, SlotLoad> = { A: { status: 'empty' }, B: { status: 'empty' } };

export interface CompareOptions {
  /** 'Preview as' a platform: each side's gain in dB, in place of matching (off while matching). */
  previewGainDb?: Record<Side, number> | null;
}

/** The compare panel's state, kept in step with one CompareEngine for the page's lifetime. */
export function useCompare({ previewGainDb = null }: CompareOptions = {}): CompareApi {
  const player = useAudioPlayer();
  const [engine, setEngine] = useState<CompareEngine | null>(null);
  const [slots, setSlots] = useState<Record<Side, CompareItem | null>>({ A: null, B: null });
  const [loads, setLoads] = useState<Record<Side, SlotLoad>>(EMPTY_LOADS);
  const [levels, setLevels] = useState<Record<Side, number>>({
    A: LEVEL_DEFAULT,
    B: LEVEL_DEFAULT,
  });
  const [active, setActive] = useState<Side>('A');
  const [playing, setPlaying] = useState(false);
  const [loop, setLoop] = useState(false);
  const [regionStart, setRegionStart] = useState('');
  const [regionEnd, setRegionEnd] = useState('');
  const [matchLoudness, setMatchLoudness] = useState(true);

  // One engine (and at most one AudioContext) per mounted panel; closed on unmount.
  useEffect(() => {
    const created = new CompareEngine({ onStopped: () => setPlaying(false) });
    setEngine(created);
    return () => created.dispose();
  }, []);

  const duration = Math.max(
    0,
    ...(['A', 'B'] as const).map((side) => {
      const load = loads[side];
      return load.status === 'ready' ? load.duration : 0;
    }),
  );
  const region = useMemo(
    () => normalizeRegion(regionStart, regionEnd, duration > 0 ? duration : undefined),
    [regionStart, regionEnd, duration],
  );
  const match = useMemo(
    () =>
      loudnessMatch(
        slots.A?.loudness?.integrated_lufs ?? null,
        slots.B?.loudness?.integrated_lufs ?? null,
      ),
    [slots.A, slots.B],
  );

  // Each slot's audio is fetched and decoded when the slot gets a bounce.
  useSlotAudio(engine, 'A', slots.A, setLoads);
  useSlotAudio(engine, 'B', slots.B, setLoads);

  const previewA = previewGainDb?.A ?? null;
  const previewB = previewGainDb?.B ?? null;
  useEffect(() => {
    if (!engine) return;
    const gains =
      previewA !== null && previewB !== null && !matchLoudness
        ? { A: dbToGain(previewA), B: dbToGain(previewB) }
        : matchGains(match, matchLoudness);
    engine.setMatchGain('A', gains.A);
    engine.setMatchGain('B', gains.B);
  }, [engine, match, matchLoudness, previewA, previewB]);
  useEffect(() => {
    engine?.setLevel('A', levels.A);
    engine?.setLevel('B', levels.B);
  }, [engine, levels]);
  useEffect(() => engine?.setActive(active), [engine, active]);
  useEffect(() => engine?.setLoop(loop), [engine, loop]);
  useEffect(() => engine?.setRegion(region), [engine, region]);

  // One thing plays at a time: the compare pauses the global player, and the other way round.
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

  const playSide = useCallback(
    (side: Side) => {
      if (!engine || !slots[side]) return;
      if (globalPlayingRef.current) pauseGlobal();
      setActive(side);
      engine.setActive(side);
      // Already playing without a region: only the gains move, so the switch is gapless.
      if (engine.isPlaying() && !region) return;
      engine.play({ restartFromRegion: true });
      setPlaying(engine.isPlaying());
    },
    [engine, slots, region, pauseGlobal],
  );

  const toggle = useCallback(() => {
    if (!engine || !slots.A || !slots.B) return;
    const next = otherSide(engine.activeSide());
    engine.setActive(next);
    setActive(next);
  }, [engine, slots.A, slots.B]);

  const pause = useCallback(() => {
    engine?.pause();
    setPlaying(false);
  }, [engine]);

  const seek = useCallback((seconds: number) => engine?.seek(seconds), [engine]);

  const setSlot = useCallback((side: Side, bounce: CompareItem) => {
    setSlots((current) =>
      current[side]?.id === bounce.id ? current : { ...current, [side]: bounce },
    );
  }, []);

  const clearSlot = useCallback(
    (side: Side) => {
      setSlots((current) => ({ ...current, [side]: null }));
      const other = otherSide(side);
      if (slots[other]) setActive(other);
      if (!slots[other]) {
        engine?.pause();
        setPlaying(false);
      }
    },
    [engine, slots],
  );

  const setLevel = useCallback((side: Side, level: number) => {
    setLevels((current) => ({ ...current, [side]: clampLevel(level) }));
  }, []);

  const position = useCallback(() => engine?.position() ?? 0, [engine]);

  return {
    slots,
    loads,
    levels,
    active,
    playing,
    loop,
    regionStart,
    regionEnd,
    region,
    matchLoudness,
    match,
    duration,
    bothSet: slots.A !== null && slots.B !== null,
    setSlot,
    clearSlot,
    setLevel,
    playSide,
    toggle,
    pause,
    seek,
    setLoop,
    setRegionStart,
    setRegionEnd,
    setMatchLoudness,
    position,
  };
}

function useSlotAudio(
  engine: CompareEngine | null,
  side: Side,
  bounce: CompareItem | null,
  setLoads: React.Dispatch<React.SetStateAction<Record<Side, SlotLoad>>>,
) {
  const url = bounce?.stream_url ?? null;
  useEffect(() => {
    if (!engine) return;
    const update = (load: SlotLoad) => setLoads((current) => ({ ...current, [side]: load }));
    if (!url) {
      engine.clear(side);
      update({ status: 'empty' });
      return;
    }
    const controller = new AbortController();
    // The previous bounce of this slot stops at once; the new one joins when decoded.
    engine.clear(side);
    update({ status: 'loading' });
    engine
      .load(side, url, controller.signal, (fetched) => {
        if (!controller.signal.aborted)
          update(fetched >= 1 ? { status: 'decoding' } : { status: 'loading', fetched });
      })
      .then(
        (duration) => update({ status: 'ready', duration }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          engine.clear(side);
          update({
            status: 'error',
            message: error instanceof Error ? error.message : 'The audio could not be loaded',
          });
        },
      );
    return () => controller.abort();
  }, [engine, side, url, setLoads]);
}
