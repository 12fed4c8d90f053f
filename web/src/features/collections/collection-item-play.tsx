import { Link } from 'react-router';
import type { Collection, CollectionItem } from '@takes/contract';
import { Badge } from '../../ui/badge';
import { primaryButton } from '../../ui/button-styles';
import { repoPagePath } from '../bounces/bounce-track';
import { formatTime } from '../player/format-time';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';
import { useRowPlay } from '../projects/use-row-play';
import { itemTitle } from './collection-format';

export type AvailableCollectionItem = Extract<CollectionItem, { unavailable: false }>;

/**
 * An item as the global player's track. A version's is the version's own (so the version routes
 * know it); a bounce's is the one the Bounces and repository pages play (its id, the repository as
 * artist, the repository page as source).
 */
function itemTrack(item: AvailableCollectionItem): PlayerTrack {
  if (item.kind === 'bounce') {
    return {
      id: item.bounce_id,
      title: itemTitle(item),
      artist: item.repo_name,
      audioUrl: item.stream_url,
      sourceUrl: repoPagePath(item.repo_id),
      duration: item.duration,
    };
  }
  return {
    id: item.version_id,
    title: itemTitle(item),
    artist: item.project_name,
    album: item.project_name,
    audioUrl: item.stream_url,
    versionId: item.version_id,
    projectId: item.project_id,
    versionNumber: item.version_number,
    duration: item.duration,
  };
}

/** The items that can play now, as the player's tracks, in the collection's order. */
function playableTracks(collection: Collection): PlayerTrack[] {
  return collection.items
    .filter(
      (item): item is AvailableCollectionItem => !item.unavailable && item.status === 'completed',
    )
    .map(itemTrack);
}

/** Plays every playable item in order, each going on to the next when it ends. */
export function PlayAllButton({ collection }: { collection: Collection }) {
  const player = useAudioPlayer();
  const tracks = playableTracks(collection);
  return (
    <button
      type="button"
      className={`${primaryButton} px-3 py-1.5`}
      disabled={tracks.length === 0}
      onClick={() => player.playQueue(tracks)}
    >
      Play all
    </button>
  );
}

/** An item that can be played: Play/Pause (starting the collection there), title, badges, source. */
export function AvailableItem({
  item,
  collection,
}: {
  item: AvailableCollectionItem;
  collection: Collection;
}) {
  const title = itemTitle(item);
  const track = itemTrack(item);
  const row = useRowPlay(track);
  const player = useAudioPlayer();
  // Not playing yet: the collection plays from this item on, going on to the next.
  const onClick = () => {
    if (row.current) return row.onClick();
    const tracks = playableTracks(collection);
    const index = tracks.findIndex((t) => t.id === track.id);
    if (index === -1) row.onClick();
    else player.playQueue(tracks, index);
  };
  return (
    <>
      <button
        type="button"
        onClick={onClick}
        disabled={row.disabled || item.status !== 'completed'}
        aria-label={`${row.playing ? 'Pause' : 'Play'} "${title}"`}
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor">
          <path d={row.playing ? 'M7 5h4v14H7zM13 5h4v14h-4z' : 'M8 5v14l11-7z'} />
        </svg>
      </button>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="flex items-center gap-2">
          <span className="truncate font-medium">{title}</span>
          {item.kind === 'latest' && <Badge tone="indigo">Latest</Badge>}
          {item.kind === 'bounce' && <Badge>Bounce</Badge>}
          {item.status === 'processing' && <Badge tone="amber">Processing</Badge>}
          {item.status === 'failed' && <Badge tone="red">Failed</Badge>}
        </span>
        <span className="truncate text-sm text-zinc-600 dark:text-zinc-300">
          <Link
            to={
              item.kind === 'bounce' ? repoPagePath(item.repo_id) : `/projects/${item.project_id}`
            }
            className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            {item.kind === 'bounce' ? item.repo_name : item.project_name}
          </Link>{' '}
          · {item.branch_name}
        </span>
      </span>
      <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-300">
        {formatTime(item.duration)}
      </span>
    </>
  );
}
