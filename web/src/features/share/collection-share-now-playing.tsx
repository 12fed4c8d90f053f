import type { SharedCollectionPageItem } from './collection-share-api';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { formatTime } from '../player/format-time';
import { useAudioPlayer, usePlayerPosition } from '../player/use-audio-player';

/**
 * The page's own transport (a share page has no player bar): the playing item, play/pause,
 * previous/next in the list and the position.
 */
export function NowPlaying({ item }: { item: SharedCollectionPageItem }) {
  const player = useAudioPlayer();
  const { state, queue } = player;
  const currentTime = usePlayerPosition();
  const duration = item.duration ?? (state.duration > 0 ? state.duration : null);
  const position = Math.min(currentTime, duration ?? currentTime);
  const hasNext = queue !== null && queue.index < queue.tracks.length - 1;
  return (
    <section
      aria-label="Now playing"
      className="mt-6 rounded-lg border border-zinc-200 bg-zinc-50 p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p className="truncate text-sm">
        <span className="text-zinc-600 dark:text-zinc-300">
          {state.isPlaying ? 'Now playing' : 'Paused'}:{' '}
        </span>
        <span className="font-semibold">{item.title}</span>
        <span className="text-zinc-600 dark:text-zinc-300"> · {item.project_name}</span>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button type="button" className={secondaryButton} onClick={player.previous}>
          Previous
        </button>
        <button
          type="button"
          className={primaryButton}
          disabled={state.switchingTrack}
          onClick={player.togglePlay}
        >
          {state.isPlaying ? 'Pause' : 'Play'}
        </button>
        <button type="button" className={secondaryButton} disabled={!hasNext} onClick={player.next}>
          Next
        </button>
        <input
          type="range"
          aria-label="Position"
          aria-valuetext={`${formatTime(position)} of ${formatTime(duration)}`}
          min={0}
          max={duration ?? 0}
          step={1}
          value={Math.floor(position)}
          disabled={duration === null}
          onChange={(event) => player.seek(Number(event.target.value))}
          className="min-w-32 flex-1 accent-indigo-600"
        />
        <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-300">
          {formatTime(position)} / {formatTime(duration)}
        </span>
      </div>
    </section>
  );
}
