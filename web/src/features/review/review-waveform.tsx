import type { Comment } from '@takes/contract';
import { carriedLabel } from '../comments/carried';
import {
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { formatTime } from '../player/format-time';

/** A passage of the track, in seconds. */
export interface TimeRange {
  start: number;
  end: number;
}

export interface ReviewWaveformProps {
  /** The stored overview peaks (0..1); the audio is never decoded here. Empty: not ready yet. */
  peaks: readonly number[];
  /** The track's length in seconds (0 while unknown). */
  duration: number;
  /** Where the player is now in this track, or null while another track plays. */
  currentTime: number | null;
  /** Comments of this version: points become markers, ranges become regions. */
  comments: readonly Comment[];
  /** The passage being selected for a new comment, drawn as a region. */
  selection: TimeRange | null;
  onSeek: (seconds: number) => void;
  /** A drag across the waveform: the passage to comment on. */
  onSelectRange: (range: TimeRange) => void;
  /** A marker or a region was chosen: seek there and open its thread. */
  onOpenComment: (comment: Comment) => void;
  /** A region was chosen: play that passage. */
  onPlayRange: (range: TimeRange) => void;
  /** Shown over the waveform area while there are no peaks (processing stages). */
  placeholder?: ReactNode;
  /** Accessible name of the waveform slider. */
  label?: string;
  /** Bars drawn (the peaks are reduced or stretched to this many). */
  bars?: number;
}

/** A drag shorter than this (px) is a click: it seeks instead of selecting. */
const DRAG_THRESHOLD_PX = 4;
/** The shortest passage a drag selects. */
const MIN_RANGE_SECONDS = 0.5;
/** ←/→ move by this much; with Shift, by ten times. */
const KEY_STEP_SECONDS = 5;

/** The peaks reduced (max of each bucket) or stretched to `count` values. */
export function barsOf(peaks: readonly number[], count: number): number[] {
  if (peaks.length === 0) return [];
  return Array.from({ length: count }, (_, i) => {
    const from = Math.floor((i * peaks.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / count));
    let max = 0;
    for (let k = from; k < to && k < peaks.length; k++)
      max = Math.max(max, Math.abs(peaks[k] ?? 0));
    return Math.min(1, max);
  });
}

export function formatRange(range: TimeRange): string {
  return `${formatTime(range.start)}–${formatTime(range.end)}`;
}

const percent = (seconds: number, duration: number) =>
  `${Math.min(100, Math.max(0, (seconds / duration) * 100))}%`;

/**
 * The review view's large waveform: the playhead, click to seek, drag to select a passage,
 * every comment as a marker (a point) or a region (a range). Keyboard: the waveform is a slider
 * (←/→ seek, Home/End); markers and regions are buttons in the tab order.
 */
export function ReviewWaveform({
  peaks,
  duration,
  currentTime,
  comments,
  selection,
  onSeek,
  onSelectRange,
  onOpenComment,
  onPlayRange,
  placeholder,
  label = 'Waveform',
  bars = 200,
}: ReviewWaveformProps) {
  const surfaceRef = useRef<HTMLDivElement>(null);
  const clipId = `${useId()}-played`;
  const [drag, setDrag] = useState<{ fromX: number; from: number; to: number } | null>(null);
  const ready = peaks.length > 0 && duration > 0;
  const heights = barsOf(peaks, bars);

  function secondsAt(clientX: number): number {
    const box = surfaceRef.current?.getBoundingClientRect();
    if (!box || box.width <= 0) return 0;
    const ratio = Math.min(1, Math.max(0, (clientX - box.left) / box.width));
    return ratio * duration;
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (!ready || event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const at = secondsAt(event.clientX);
    setDrag({ fromX: event.clientX, from: at, to: at });
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!drag) return;
    setDrag({ ...drag, to: secondsAt(event.clientX) });
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    if (!drag) return;
    const moved = Math.abs(event.clientX - drag.fromX) >= DRAG_THRESHOLD_PX;
    const to = secondsAt(event.clientX);
    setDrag(null);
    if (!moved) {
      onSeek(drag.from);
      return;
    }
    const start = Math.min(drag.from, to);
    const end = Math.max(drag.from, to);
    if (end - start >= MIN_RANGE_SECONDS) onSelectRange({ start, end });
    else onSeek(drag.from);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!ready) return;
    const now = currentTime ?? 0;
    const step = event.shiftKey ? KEY_STEP_SECONDS * 10 : KEY_STEP_SECONDS;
    let to: number | null = null;
    if (event.key === 'ArrowRight') to = Math.min(duration, now + step);
    else if (event.key === 'ArrowLeft') to = Math.max(0, now - step);
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = duration;
    if (to === null) return;
    event.preventDefault();
    onSeek(to);
  }

  const dragging =
    drag && Math.abs(drag.to - drag.from) > 0
      ? { start: Math.min(drag.from, drag.to), end: Math.max(drag.from, drag.to) }
      : null;
  const shownSelection = dragging ?? selection;
  const points = comments.filter(
    (c): c is Comment & { timestamp: number } => c.timestamp !== null && c.end_timestamp === null,
  );
  const ranges = comments.filter(
    (c): c is Comment & { timestamp: number; end_timestamp: number } =>
      c.timestamp !== null && c.end_timestamp !== null,
  );
  const played = currentTime !== null && ready ? percent(currentTime, duration) : null;

  return (
    <div className="space-y-1" data-testid="review-waveform">
      <div className="relative h-32 w-full select-none sm:h-40">
        <div
          ref={surfaceRef}
          role="slider"
          tabIndex={ready ? 0 : -1}
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(currentTime ?? 0)}
          aria-valuetext={`${formatTime(currentTime ?? 0)} of ${formatTime(duration)}`}
          aria-disabled={!ready}
          data-testid="review-waveform-surface"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
          onKeyDown={onKeyDown}
          className="absolute inset-0 cursor-pointer touch-none rounded-md bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:bg-zinc-900"
        >
          {ready ? (
            <svg
              aria-hidden="true"
              className="size-full"
              viewBox={`0 0 ${heights.length} 100`}
              preserveAspectRatio="none"
            >
              <defs>
                <clipPath id={clipId}>
                  <rect
                    x="0"
                    y="0"
                    height="100"
                    width={(parseFloat(played ?? '0') / 100) * heights.length}
                  />
                </clipPath>
              </defs>
              <path d={barsPath(heights)} className="fill-zinc-400 dark:fill-zinc-600" />
              <path
                d={barsPath(heights)}
                clipPath={`url(#${clipId})`}
                className="fill-indigo-600 dark:fill-indigo-400"
              />
            </svg>
          ) : (
            <div className="flex size-full items-center justify-center px-4 text-center text-sm text-zinc-600 dark:text-zinc-300">
              {placeholder}
            </div>
          )}
        </div>

        {ready &&
          ranges.map((c) => (
            <button
              key={c.id}
              type="button"
              data-testid="comment-region"
              data-carried={c.carried ? 'true' : undefined}
              title={`${formatRange({ start: c.timestamp, end: c.end_timestamp })} ${c.author}${fromLabel(c)}: ${c.content}`}
              aria-label={`Play passage ${formatRange({ start: c.timestamp, end: c.end_timestamp })}, comment by ${c.author}${fromLabel(c)}: ${c.content}`}
              onClick={() => {
                onOpenComment(c);
                onPlayRange({ start: c.timestamp, end: c.end_timestamp });
              }}
              style={{
                left: percent(c.timestamp, duration),
                width: `calc(${percent(c.end_timestamp, duration)} - ${percent(c.timestamp, duration)})`,
              }}
              className={`absolute top-0 h-3 rounded-b focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 ${c.carried ? 'bg-sky-400/80 hover:bg-sky-500 dark:bg-sky-300/70' : 'bg-amber-400/80 hover:bg-amber-500 dark:bg-amber-300/70'}`}
            />
          ))}

        {shownSelection && ready ? (
          <div
            data-testid="selection-region"
            aria-hidden="true"
            style={{
              left: percent(shownSelection.start, duration),
              width: `calc(${percent(shownSelection.end, duration)} - ${percent(shownSelection.start, duration)})`,
            }}
            className="pointer-events-none absolute inset-y-0 border-x-2 border-indigo-500 bg-indigo-500/20"
          />
        ) : null}

        {played !== null ? (
          <div
            aria-hidden="true"
            data-testid="review-playhead"
            style={{ left: played }}
            className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-zinc-900 dark:bg-zinc-100"
          />
        ) : null}

        {ready &&
          points.map((c) => (
            <button
              key={c.id}
              type="button"
              data-testid="comment-marker"
              data-carried={c.carried ? 'true' : undefined}
              title={`${formatTime(c.timestamp)} ${c.author}${fromLabel(c)}: ${c.content}`}
              aria-label={`Comment at ${formatTime(c.timestamp)} by ${c.author}${fromLabel(c)}: ${c.content}`}
              onClick={() => onOpenComment(c)}
              style={{ left: percent(c.timestamp, duration) }}
              className={`group absolute bottom-0 size-4 -translate-x-1/2 translate-y-1/2 rounded-full border-2 border-white hover:scale-125 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-950 ${c.carried ? 'bg-sky-500 dark:bg-sky-400' : 'bg-amber-500 dark:bg-amber-400'}`}
            >
              <span
                role="tooltip"
                className="pointer-events-none absolute bottom-5 left-1/2 z-10 hidden w-56 -translate-x-1/2 rounded-md bg-zinc-900 px-2 py-1 text-left text-xs text-white shadow group-hover:block group-focus-visible:block dark:bg-zinc-100 dark:text-zinc-900"
              >
                <span className="font-semibold">{c.author}</span> · {formatTime(c.timestamp)}
                {c.carried ? <span className="block opacity-80">{carriedLabel(c)}</span> : null}
                <span className="mt-0.5 line-clamp-3 block">{c.content}</span>
              </span>
            </button>
          ))}
      </div>
      <div className="flex justify-between font-mono text-xs text-zinc-600 tabular-nums dark:text-zinc-300">
        <span>{formatTime(currentTime ?? 0)}</span>
        {shownSelection ? (
          <span data-testid="selection-label">{formatRange(shownSelection)}</span>
        ) : null}
        <span>{formatTime(duration)}</span>
      </div>
    </div>
  );
}

/** One path of vertical bars centred on the middle line (height 100 per bar unit). */
function barsPath(heights: readonly number[]): string {
  let d = '';
  heights.forEach((h, i) => {
    const half = Math.max(1, h * 48);
    d += `M${i + 0.15} ${50 - half}h0.7v${half * 2}h-0.7z`;
  });
  return d;
}

/** ', from Version 3 at 1:23' for an earlier version's comment carried here; '' otherwise. */
function fromLabel(comment: Comment): string {
  const label = carriedLabel(comment);
  return label ? `, ${label}` : '';
}
