import type { VersionChanges } from '@takes/contract';
import { useEffect, useId, useRef } from 'react';
import { useAnimationFrame } from '../../lib/use-animation-frame';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { formatTime } from '../player/format-time';
import { ChangesLane } from './changes-lane';
import {
  changeFrom,
  compareKeyAction,
  formatPosition,
  LEVEL_MAX,
  LEVEL_MIN,
  LEVEL_STEP,
  loudnessSummary,
  REGION_STEP,
  type Side,
} from './compare-logic';
import { CompareWaveform } from './compare-waveform';
import type { CompareApi } from './use-compare';

const PLACEHOLDERS: Record<Side, string> = {
  A: 'Select a bounce as A',
  B: 'Select a bounce as B',
};

const numberInput =
  'w-24 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/**
 * The Compare A/B panel. The live position is written straight into the DOM each
 * animation frame (the readout's text and `data-position-ms`, the slots' progress bars), so the
 * panel itself re-renders only when its state changes.
 */
/** Two versions' 'Changes' lane (A against B, on A's timeline), when the panel compares versions. */
export interface ChangesLaneInput {
  changes: VersionChanges | undefined;
}

export function ComparePanel({
  compare,
  lane,
}: {
  compare: CompareApi;
  lane?: ChangesLaneInput | undefined;
}) {
  const headingId = useId();
  const readoutRef = useRef<HTMLSpanElement>(null);
  const progressRefs = { A: useRef<HTMLDivElement>(null), B: useRef<HTMLDivElement>(null) };
  const { duration, position } = compare;

  useAnimationFrame(() => {
    const seconds = position();
    const readout = readoutRef.current;
    if (readout) {
      const ms = String(Math.round(seconds * 1000));
      if (readout.dataset.positionMs !== ms) {
        readout.dataset.positionMs = ms;
        readout.textContent = formatPosition(seconds);
      }
    }
    const percent = duration > 0 ? `${Math.min(100, (seconds / duration) * 100)}%` : '0%';
    const wholeSeconds = String(Math.floor(seconds));
    for (const ref of [progressRefs.A, progressRefs.B]) {
      const progress = ref.current;
      if (!progress) continue;
      if (progress.style.width !== percent) progress.style.width = percent;
      // The waveform is a seek slider; its value follows the position too.
      const slider = progress.parentElement;
      if (slider && slider.getAttribute('aria-valuenow') !== wholeSeconds) {
        slider.setAttribute('aria-valuenow', wholeSeconds);
        slider.setAttribute('aria-valuetext', formatTime(seconds));
      }
    }
  });

  // Space toggles, a and b select and play; the page must not scroll on Space.
  // On the document, so it runs before the global player's own Space handler on the window.
  const compareRef = useRef(compare);
  const regionsRef = useRef<readonly { start: number }[]>([]);
  const laneRegions = lane?.changes?.status === 'ready' ? lane.changes.regions : null;
  useEffect(() => {
    compareRef.current = compare;
    regionsRef.current = laneRegions ?? [];
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      const action = compareKeyAction(event);
      const current = compareRef.current;
      if (action === 'toggle') {
        // With a side missing there is nothing to toggle; Space stays the global player's.
        if (!current.bothSet) return;
        event.preventDefault();
        current.toggle();
      } else if (action === 'next-change' || action === 'previous-change') {
        const to = changeFrom(
          regionsRef.current,
          current.position(),
          action === 'next-change' ? 'next' : 'previous',
        );
        if (to === null) return;
        event.preventDefault();
        jumpTo(current, to);
      } else if (action === 'play-A' || action === 'play-B') {
        const side: Side = action === 'play-A' ? 'A' : 'B';
        if (!current.slots[side]) return;
        event.preventDefault();
        current.playSide(side);
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <section
      aria-labelledby={headingId}
      data-testid="compare-panel"
      data-active-side={compare.active}
      data-playing={String(compare.playing)}
      className="space-y-4 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">
          Compare A/B
        </h2>
        <p className="font-mono text-sm text-zinc-700 tabular-nums dark:text-zinc-300">
          <span ref={readoutRef} role="timer" data-testid="compare-position" data-position-ms="0">
            {formatPosition(0)}
          </span>
          <span className="text-zinc-600 dark:text-zinc-400"> / {formatPosition(duration)}</span>
        </p>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        {(['A', 'B'] as const).map((side) => (
          <CompareSlot
            key={side}
            side={side}
            compare={compare}
            progressRef={progressRefs[side]}
            lane={side === 'A' ? lane : undefined}
          />
        ))}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={primaryButton}
          disabled={!compare.bothSet}
          onClick={compare.toggle}
        >
          Toggle A/B (Space)
        </button>
        <button
          type="button"
          className={secondaryButton}
          disabled={!compare.playing}
          onClick={compare.pause}
        >
          Pause
        </button>
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          Hearing <strong className="text-zinc-900 dark:text-zinc-100">{compare.active}</strong>
        </span>
      </div>

      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <label className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input
            type="checkbox"
            checked={compare.loop}
            onChange={(event) => compare.setLoop(event.target.checked)}
            className="size-4 accent-indigo-600"
          />
          Loop
        </label>
        <fieldset className="flex items-end gap-2">
          <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
            Region
          </legend>
          <label className="flex flex-col text-xs text-zinc-600 dark:text-zinc-400">
            Start (s)
            <input
              type="number"
              min={0}
              step={REGION_STEP}
              inputMode="decimal"
              value={compare.regionStart}
              onChange={(event) => compare.setRegionStart(event.target.value)}
              className={numberInput}
            />
          </label>
          <label className="flex flex-col text-xs text-zinc-600 dark:text-zinc-400">
            End (s)
            <input
              type="number"
              min={0}
              step={REGION_STEP}
              inputMode="decimal"
              value={compare.regionEnd}
              placeholder={
                compare.regionStart.trim() !== '' && compare.region
                  ? String(compare.region.end)
                  : undefined
              }
              onChange={(event) => compare.setRegionEnd(event.target.value)}
              className={numberInput}
            />
          </label>
        </fieldset>
        <LoudnessMatchControl compare={compare} />
      </div>
    </section>
  );
}

function LoudnessMatchControl({ compare }: { compare: CompareApi }) {
  const available = compare.match.available;
  const showSummary = compare.slots.A !== null && compare.slots.B !== null;
  return (
    <div className="space-y-1">
      <label className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
        <input
          type="checkbox"
          role="switch"
          checked={compare.matchLoudness}
          disabled={showSummary && !available}
          onChange={(event) => compare.setMatchLoudness(event.target.checked)}
          className="size-4 accent-indigo-600"
        />
        Match loudness
      </label>
      {showSummary && (
        <p data-testid="loudness-summary" className="text-xs text-zinc-600 dark:text-zinc-400">
          {loudnessSummary(compare.match, compare.matchLoudness)}
        </p>
      )}
    </div>
  );
}

/** Plays from `seconds` (a change): the side on air keeps playing there, or starts. */
function jumpTo(compare: CompareApi, seconds: number) {
  compare.seek(seconds);
  if (!compare.playing) compare.playSide(compare.active);
}

function CompareSlot({
  side,
  compare,
  progressRef,
  lane,
}: {
  side: Side;
  compare: CompareApi;
  progressRef: React.RefObject<HTMLDivElement | null>;
  lane: ChangesLaneInput | undefined;
}) {
  const bounce = compare.slots[side];
  const load = compare.loads[side];
  const isActive = compare.active === side;
  const levelId = useId();
  const lufs = bounce?.loudness?.integrated_lufs ?? null;

  return (
    <div
      role="group"
      aria-label={`Slot ${side}`}
      data-side={side}
      data-loaded={String(load.status === 'ready')}
      className={`space-y-3 rounded-md border p-3 ${
        isActive
          ? 'border-indigo-400 ring-1 ring-indigo-400 dark:border-indigo-500 dark:ring-indigo-500'
          : 'border-zinc-200 dark:border-zinc-800'
      }`}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
            {side}
          </p>
          {bounce ? (
            <p className="truncate font-medium text-zinc-900 dark:text-zinc-100">
              {bounce.title || bounce.filename}
            </p>
          ) : (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{PLACEHOLDERS[side]}</p>
          )}
          {bounce && (
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              {new Date(bounce.created_at).toLocaleString('en-US')}
              {' · '}
              {formatTime(load.status === 'ready' ? load.duration : bounce.duration)}
              {lufs !== null && ` · ${lufs.toFixed(1)} LUFS`}
            </p>
          )}
        </div>
        {bounce && (
          <button type="button" className={linkButton} onClick={() => compare.clearSlot(side)}>
            Clear
          </button>
        )}
      </div>

      {bounce && (
        <>
          <CompareWaveform
            ref={progressRef}
            label={`Waveform ${side}`}
            waveform={bounce.waveform_json}
            ownDuration={load.status === 'ready' ? load.duration : (bounce.duration ?? 0)}
            timelineDuration={compare.duration}
            active={isActive}
            onSeek={compare.seek}
            {...(side === 'A'
              ? {
                  // Dragging on A's waveform sets the loop region and turns the loop on.
                  onSelectRegion: (start: number, end: number) => {
                    compare.setRegionStart(start.toFixed(1));
                    compare.setRegionEnd(end.toFixed(1));
                    compare.setLoop(true);
                  },
                }
              : {})}
            position={compare.position}
          />
          {lane ? (
            <ChangesLane
              changes={lane.changes}
              duration={compare.duration}
              onJump={(seconds) => jumpTo(compare, seconds)}
            />
          ) : null}
          {load.status === 'loading' && (
            <p role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
              {load.fetched === undefined
                ? 'Loading audio…'
                : `Loading audio… ${Math.round(load.fetched * 100)}%`}
            </p>
          )}
          {load.status === 'decoding' && (
            <p role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
              Decoding…
            </p>
          )}
          {load.status === 'error' && (
            <p role="alert" className="text-xs text-red-700 dark:text-red-300">
              {load.message}
            </p>
          )}
        </>
      )}

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={secondaryButton}
          disabled={!bounce || load.status !== 'ready'}
          aria-pressed={isActive && compare.playing}
          onClick={() => compare.playSide(side)}
        >
          Play {side}
        </button>
        <label
          htmlFor={levelId}
          className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300"
        >
          Level
          <input
            id={levelId}
            type="range"
            min={LEVEL_MIN}
            max={LEVEL_MAX}
            step={LEVEL_STEP}
            value={compare.levels[side]}
            onChange={(event) => compare.setLevel(side, Number(event.target.value))}
            className="h-1.5 w-28 cursor-pointer accent-indigo-600"
          />
        </label>
      </div>
    </div>
  );
}
