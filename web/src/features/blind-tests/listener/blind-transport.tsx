import { useEffect, useRef, useState } from 'react';
import { useAnimationFrame } from '../../../lib/use-animation-frame';
import { Alert } from '../../../ui/alert';
import { primaryButton, secondaryButton } from '../../../ui/button-styles';
import { formatTime } from '../../player/format-time';
import type { BlindPlayer } from './use-blind-player';

/** How often the time and the position slider follow playback. */
const POSITION_TICK_MS = 200;

/** The position, read again every tick while playing (and after a seek). */
function useLivePosition(player: BlindPlayer): [number, (seconds: number) => void] {
  const [position, setPosition] = useState(0);
  const { playing, position: read } = player;
  useEffect(() => {
    setPosition(read());
    if (!playing) return;
    const timer = window.setInterval(() => setPosition(read()), POSITION_TICK_MS);
    return () => window.clearInterval(timer);
  }, [playing, read]);
  return [position, setPosition];
}

/**
 * The test's one transport: a button per letter ('Play X': that option is heard from the same
 * position), Play/Pause, the position slider and the time.
 */
export function BlindTransport({ player, label }: { player: BlindPlayer; label: string }) {
  const [position, setPosition] = useLivePosition(player);
  const duration = player.duration ?? 0;
  const shown = Math.min(position, duration);
  const canSeek = player.engaged && !player.loading && duration > 0;
  // The engine's own position in `data-position-ms`, written every animation frame (as the
  // compare view's readout does), so a check can follow the audio clock across a switch.
  const readoutRef = useRef<HTMLSpanElement>(null);
  useAnimationFrame(() => {
    const readout = readoutRef.current;
    const ms = String(Math.round(player.position() * 1000));
    if (readout && readout.dataset.positionMs !== ms) readout.dataset.positionMs = ms;
  });

  return (
    <div
      role="group"
      aria-label={label}
      data-active-letter={player.active ?? ''}
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-3 shadow-sm sm:p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap gap-2">
        {player.options.map((option) => {
          const heard = option.letter === player.active;
          return (
            <button
              key={option.letter}
              type="button"
              aria-pressed={heard}
              onClick={() => player.playLetter(option.letter)}
              className={`${heard ? primaryButton : secondaryButton} min-w-20`}
            >
              Play {option.letter}
            </button>
          );
        })}
      </div>
      <div className="flex items-center gap-3">
        <button
          type="button"
          className={`${secondaryButton} w-20 shrink-0`}
          onClick={player.togglePlay}
        >
          {player.playing ? 'Pause' : 'Play'}
        </button>
        <input
          type="range"
          aria-label="Position"
          aria-valuetext={`${formatTime(shown)} of ${formatTime(player.duration)}`}
          min={0}
          max={duration}
          step={0.1}
          value={shown}
          disabled={!canSeek}
          onChange={(event) => {
            const seconds = Number(event.target.value);
            player.seek(seconds);
            setPosition(seconds);
          }}
          className="min-w-0 flex-1 accent-indigo-600"
        />
        <span
          ref={readoutRef}
          data-testid="blind-position"
          className="shrink-0 font-mono text-sm text-zinc-700 tabular-nums dark:text-zinc-300"
        >
          {formatTime(shown)} / {formatTime(player.duration)}
        </span>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-300" role="status">
        {player.loading
          ? 'Loading the audio…'
          : player.active && player.playing
            ? `Hearing ${player.active}`
            : ''}
      </p>
      {player.error ? <Alert tone="error">{player.error}</Alert> : null}
    </div>
  );
}
