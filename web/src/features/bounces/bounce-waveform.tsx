import { lazy, Suspense, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { BounceWaveform as BounceWaveformData } from '@takes/contract';
import { useSeekToTime } from '../comments/use-seek-to-time';
import { formatTime } from '../player/format-time';
import { useAudioPlayer, usePlayerPosition, type PlayerTrack } from '../player/use-audio-player';
import { useInView } from './use-in-view';

// wavesurfer.js loads only when a waveform scrolls into view.
const WaveformCanvas = lazy(() =>
  import('./waveform-canvas').then((m) => ({ default: m.WaveformCanvas })),
);

/** Repository bounce cards draw their waveform 96 px high, bar width 2, gap 1. */
export const BOUNCE_CARD_WAVEFORM_HEIGHT = 96;
const KEY_SEEK_SECONDS = 10;

interface BounceWaveformProps {
  track: PlayerTrack;
  waveform: BounceWaveformData | null;
  height?: number;
}

/**
 * A bounce's waveform, drawn once it scrolls into view. Clicking it seeks the global player,
 * starting this bounce first when it is not the current track; arrow keys do the same.
 */
export function BounceWaveform({
  track,
  waveform,
  height = BOUNCE_CARD_WAVEFORM_HEIGHT,
}: BounceWaveformProps) {
  const ref = useRef<HTMLDivElement>(null);
  const inView = useInView(ref);
  const player = useAudioPlayer();
  const seekTo = useSeekToTime(track);
  const current = player.isCurrent(track);
  const duration = waveform?.duration ?? track.duration ?? 0;
  const position = usePlayerPosition(current);
  const drawable = waveform !== null && waveform.max.length > 0 && waveform.duration > 0;

  function seekToSeconds(seconds: number) {
    if (duration <= 0) return;
    seekTo(Math.min(duration, Math.max(0, seconds)));
  }

  function onClick(event: MouseEvent<HTMLDivElement>) {
    const rect = event.currentTarget.getBoundingClientRect();
    if (rect.width <= 0) return;
    seekToSeconds(((event.clientX - rect.left) / rect.width) * duration);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const targets: Record<string, number> = {
      ArrowRight: position + KEY_SEEK_SECONDS,
      ArrowLeft: position - KEY_SEEK_SECONDS,
      Home: 0,
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    seekToSeconds(target);
  }

  const placeholder = (
    <div
      aria-hidden="true"
      className="flex w-full items-center"
      style={{ height }}
      data-testid="waveform-placeholder"
    >
      <div className="h-px w-full bg-zinc-300 dark:bg-zinc-700" />
    </div>
  );

  return (
    <div
      ref={ref}
      role="slider"
      tabIndex={duration > 0 ? 0 : -1}
      aria-label={`Seek ${track.title}`}
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(Math.min(position, duration))}
      aria-valuetext={`${formatTime(position)} of ${formatTime(duration > 0 ? duration : null)}`}
      aria-disabled={duration > 0 ? undefined : true}
      data-testid="bounce-waveform"
      onClick={onClick}
      onKeyDown={onKeyDown}
      className="w-full cursor-pointer rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      style={{ height }}
    >
      {inView && drawable ? (
        <Suspense fallback={placeholder}>
          <WaveformCanvas waveform={waveform} height={height} progressSeconds={position} />
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}
