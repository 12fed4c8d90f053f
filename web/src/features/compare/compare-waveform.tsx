import { forwardRef, useMemo, type KeyboardEvent, type MouseEvent } from 'react';
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
}

/**
 * The stored min/max overview of one slot on the shared timeline, with a progress overlay the
 * panel moves every animation frame (through the forwarded ref). A click seeks both sides.
 * Drawn as one SVG path: wavesurfer.js follows a media element's clock, and this follows the
 * AudioContext's.
 */
export const CompareWaveform = forwardRef<HTMLDivElement, CompareWaveformProps>(
  function CompareWaveform(
    { label, waveform, ownDuration, timelineDuration, active, onSeek, position },
    progressRef,
  ) {
    const path = useMemo(
      () => waveformPath(waveform?.min ?? [], waveform?.max ?? [], VIEW_WIDTH, VIEW_HEIGHT),
      [waveform],
    );
    const seekable = timelineDuration > 0;
    const widthPercent =
      seekable && ownDuration > 0 ? Math.min(100, (ownDuration / timelineDuration) * 100) : 100;

    function seekFromClick(event: MouseEvent<HTMLDivElement>) {
      if (!seekable) return;
      const box = event.currentTarget.getBoundingClientRect();
      if (box.width <= 0) return;
      const fraction = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
      onSeek(fraction * timelineDuration);
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
