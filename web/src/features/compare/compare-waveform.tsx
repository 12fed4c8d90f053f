import {
  forwardRef,
  useMemo,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import type { BounceWaveform } from '@takes/contract';
import { waveformPath } from './compare-logic';

const VIEW_WIDTH = 1000;
const VIEW_HEIGHT = 64;
/** Arrow keys on the waveform move this many seconds. */
const KEY_SEEK_SECONDS = 5;

interface CompareWaveformProps {
  label: string;
  waveform: BounceWaveform | null;
  /** This bounce's own length, and the transport's (the longer bounce): both in seconds. */
  ownDuration: number;
  timelineDuration: number;
  active: boolean;
  onSeek: (seconds: number) => void;
  /** Reads the live position for keyboard seeking. */
  position: () => number;
  /** A drag across the waveform: the passage to loop (seconds on the shared timeline). */
  onSelectRegion?: (start: number, end: number) => void;
}

/** A press that moves less than this (px) is a click: it seeks. */
const DRAG_THRESHOLD_PX = 4;

/**
 * The stored min/max overview of one slot on the shared timeline, with a progress overlay the
 * panel moves every animation frame (through the forwarded ref). A click seeks both sides.
 * Drawn as one SVG path: wavesurfer.js follows a media element's clock, and this follows the
 * AudioContext's.
 */
export const CompareWaveform = forwardRef<HTMLDivElement, CompareWaveformProps>(
  function CompareWaveform(
    { label, waveform, ownDuration, timelineDuration, active, onSeek, position, onSelectRegion },
    progressRef,
  ) {
    const path = useMemo(
      () => waveformPath(waveform?.min ?? [], waveform?.max ?? [], VIEW_WIDTH, VIEW_HEIGHT),
      [waveform],
    );
    const seekable = timelineDuration > 0;
    const widthPercent =
      seekable && ownDuration > 0 ? Math.min(100, (ownDuration / timelineDuration) * 100) : 100;

    const dragRef = useRef<{ x: number; at: number } | null>(null);
    const draggedRef = useRef(false);

    function timeAt(event: MouseEvent<HTMLDivElement>): number | null {
      const box = event.currentTarget.getBoundingClientRect();
      if (box.width <= 0) return null;
      return Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) * timelineDuration;
    }

    function seekFromClick(event: MouseEvent<HTMLDivElement>) {
      // The click that ends a drag is not a seek: the drag chose a loop region.
      if (draggedRef.current) {
        draggedRef.current = false;
        return;
      }
      if (!seekable) return;
      const at = timeAt(event);
      if (at !== null) onSeek(at);
    }

    function startDrag(event: PointerEvent<HTMLDivElement>) {
      if (!seekable || !onSelectRegion || event.button !== 0) return;
      const at = timeAt(event);
      dragRef.current = at === null ? null : { x: event.clientX, at };
      draggedRef.current = false;
    }

    function endDrag(event: PointerEvent<HTMLDivElement>) {
      const drag = dragRef.current;
      dragRef.current = null;
      if (!drag || !onSelectRegion) return;
      if (Math.abs(event.clientX - drag.x) < DRAG_THRESHOLD_PX) return;
      const at = timeAt(event);
      if (at === null) return;
      draggedRef.current = true;
      onSelectRegion(Math.min(drag.at, at), Math.max(drag.at, at));
    }

    function seekFromKey(event: KeyboardEvent<HTMLDivElement>) {
      if (!seekable) return;
      const step =
        event.key === 'ArrowRight'
          ? KEY_SEEK_SECONDS
          : event.key === 'ArrowLeft'
            ? -KEY_SEEK_SECONDS
            : 0;
      if (step === 0) return;
      event.preventDefault();
      onSeek(Math.min(timelineDuration, Math.max(0, position() + step)));
    }

    return (
      <div
        role="slider"
        tabIndex={seekable ? 0 : -1}
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={Math.round(timelineDuration)}
        aria-valuenow={0}
        aria-disabled={!seekable}
        onClick={seekFromClick}
        onPointerDown={startDrag}
        onPointerUp={endDrag}
        onKeyDown={seekFromKey}
        className={`relative h-16 w-full overflow-hidden rounded-md bg-zinc-100 dark:bg-zinc-800/70 ${
          seekable ? 'cursor-pointer' : 'cursor-default'
        } focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500`}
      >
        <svg
          aria-hidden="true"
          viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
          preserveAspectRatio="none"
          className={`absolute inset-y-0 left-0 h-full ${
            active ? 'text-indigo-500 dark:text-indigo-400' : 'text-zinc-400 dark:text-zinc-500'
          }`}
          style={{ width: `${widthPercent}%` }}
        >
          <path d={path} stroke="currentColor" strokeWidth={VIEW_WIDTH / 600} fill="none" />
        </svg>
        <div
          ref={progressRef}
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 left-0 border-r-2 border-zinc-900 bg-indigo-500/15 dark:border-zinc-100 dark:bg-indigo-400/20"
          style={{ width: '0%' }}
        />
      </div>
    );
  },
);
