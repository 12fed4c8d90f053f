import { PauseIcon, PlayIcon } from '../player/player-icons';
import type { PlayerTrack } from '../player/use-audio-player';
import { useRowPlay } from '../projects/use-row-play';

const variants = {
  round:
    'flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 disabled:opacity-50',
  small:
    'flex size-7 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 disabled:opacity-50 [&_svg]:size-4',
  overlay:
    'flex size-12 items-center justify-center rounded-full bg-black/60 text-white shadow-lg hover:bg-black/75 disabled:opacity-50',
} as const;

interface BouncePlayButtonProps {
  track: PlayerTrack;
  variant?: keyof typeof variants;
  disabled?: boolean;
  className?: string;
}

/**
 * Plays a bounce in the global player; on the bounce that is playing it pauses (playing the
 * currently playing bounce toggles it). Debounce and lock as for version rows.
 */
export function BouncePlayButton({
  track,
  variant = 'round',
  disabled = false,
  className = '',
}: BouncePlayButtonProps) {
  const row = useRowPlay(track);
  const label = `${row.playing ? 'Pause' : 'Play'} ${track.title}`;
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={row.disabled || disabled}
      onClick={(event) => {
        event.stopPropagation();
        row.onClick();
      }}
      className={`${variants[variant]} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ${className}`}
    >
      {row.playing ? <PauseIcon /> : <PlayIcon />}
    </button>
  );
}
