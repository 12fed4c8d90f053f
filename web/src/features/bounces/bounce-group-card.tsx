import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { RecentBounce } from '@takes/contract';
import { formatDate } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { AddToCollectionButton, type CollectionTarget } from '../collections/add-to-collection';
import { formatTime } from '../player/format-time';
import { PauseIcon, PlayIcon } from '../player/player-icons';
import { useRowPlay } from '../projects/use-row-play';
import { BouncePlayButton } from './bounce-play-button';
import { recentTrack } from './bounce-track';
import { BounceWaveform } from './bounce-waveform';
import { coverCandidates, LOGO_URL } from './cover';
import type { RecentGroup } from './group-recent';
import { ReviewStatusBadge } from '../review/review-status';

interface BounceGroupCardProps {
  group: RecentGroup;
  /** The item the card shows; the newest until another is chosen. */
  selectedId: string | undefined;
  expanded: boolean;
  onToggle: () => void;
  onSelect: (itemId: string) => void;
  repoCover: string | null;
  avatarUrl: string | null;
}

/** What 'Add to collection' adds for a feed item: the bounce, or the project version. */
function collectionTarget(item: RecentBounce): CollectionTarget {
  if (item.kind === 'version') {
    return {
      kind: 'version',
      versionId: item.id,
      versionNumber: item.version_number,
      branch: null,
    };
  }
  return { kind: 'bounce', bounceId: item.id, title: item.title };
}

function itemDuration(item: RecentBounce): number | null {
  return item.duration ?? item.waveform_json?.duration ?? null;
}

export function BounceGroupCard(props: BounceGroupCardProps) {
  const { group, expanded } = props;
  const listId = useId();
  const item = group.items.find((i) => i.id === props.selectedId) ?? group.items[0];
  if (!item) return null;
  const covers = coverCandidates({
    itemCover: item.cover_url,
    repoCover: props.repoCover,
    avatarUrl: props.avatarUrl,
  });
  const track = recentTrack(item, covers[0]);
  const source = item.kind === 'version' ? item.project_name : item.repo_name;

  return (
    <li className="flex flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <article aria-label={item.title} className="flex flex-1 flex-col">
        <div className="relative aspect-[2/1] bg-zinc-100 dark:bg-zinc-800">
          <CoverImage key={covers.join(' ')} candidates={covers} />
          <div className="absolute inset-0 flex items-center justify-center">
            <BouncePlayButton track={track} variant="overlay" />
          </div>
        </div>
        <div className="flex flex-1 flex-col gap-2 p-4">
          <BounceWaveform track={track} waveform={item.waveform_json} />
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="font-semibold break-words">{item.title}</h3>
              {item.review_status ? <ReviewStatusBadge status={item.review_status} /> : null}
              <p className="text-sm text-zinc-600 dark:text-zinc-300">
                {source ? `${source} · ` : ''}
                {formatDate(item.created_at)}
              </p>
            </div>
            <span className="shrink-0 text-sm text-zinc-600 tabular-nums dark:text-zinc-300">
              {formatTime(itemDuration(item))}
            </span>
          </div>
          <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-1">
            {item.kind === 'version' && item.project_id ? (
              <Link
                to={`/projects/${item.project_id}`}
                className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
              >
                Open project
              </Link>
            ) : item.repo_id ? (
              <Link
                to={`/repositories/${item.repo_id}`}
                className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
              >
                Open repo
              </Link>
            ) : (
              <span />
            )}
            <AddToCollectionButton target={collectionTarget(item)} />
            {group.items.length > 1 && (
              <button
                type="button"
                aria-expanded={expanded}
                aria-controls={listId}
                onClick={props.onToggle}
                className="rounded text-sm font-medium text-zinc-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-200"
              >
                {expanded ? 'Hide versions' : 'View versions'}
              </button>
            )}
          </div>
          {expanded && (
            <ul
              id={listId}
              aria-label={`Versions of ${item.title}`}
              className="space-y-1 border-t border-zinc-200 pt-2 dark:border-zinc-800"
            >
              {group.items.map((version, index) => (
                <VersionRow
                  key={version.id}
                  item={version}
                  latest={index === 0}
                  selected={version.id === item.id}
                  coverArt={covers[0]}
                  onSelect={() => props.onSelect(version.id)}
                />
              ))}
            </ul>
          )}
        </div>
      </article>
    </li>
  );
}

/** Cover with fallbacks: when an image fails, the next candidate (avatar, then logo). */
function CoverImage({ candidates }: { candidates: string[] }) {
  const [index, setIndex] = useState(0);
  const src = candidates[Math.min(index, candidates.length - 1)];
  return (
    <img
      src={src}
      alt=""
      loading="lazy"
      data-testid="bounce-cover"
      onError={() => setIndex((i) => (i + 1 < candidates.length ? i + 1 : i))}
      // The square logo is shown whole; photos fill the frame.
      className={src === LOGO_URL ? 'size-full object-contain p-6' : 'size-full object-cover'}
    />
  );
}

function VersionRow({
  item,
  latest,
  selected,
  coverArt,
  onSelect,
}: {
  item: RecentBounce;
  latest: boolean;
  selected: boolean;
  coverArt: string | undefined;
  onSelect: () => void;
}) {
  const row = useRowPlay(recentTrack(item, coverArt));
  return (
    <li>
      <button
        type="button"
        disabled={row.disabled}
        aria-pressed={selected}
        aria-label={`${row.playing ? 'Pause' : 'Play'} ${item.title}, ${formatDate(item.created_at)}`}
        onClick={() => {
          onSelect();
          row.onClick();
        }}
        className={`flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ${
          selected ? 'bg-indigo-50 dark:bg-indigo-950' : 'hover:bg-zinc-50 dark:hover:bg-zinc-800'
        }`}
      >
        <span className="text-indigo-600 dark:text-indigo-400 [&_svg]:size-4">
          {row.playing ? <PauseIcon /> : <PlayIcon />}
        </span>
        <span className="min-w-0 flex-1 truncate">{item.title}</span>
        {latest && <Badge tone="indigo">Latest</Badge>}
        {item.review_status ? <ReviewStatusBadge status={item.review_status} /> : null}
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {formatDate(item.created_at)}
        </span>
        <span className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
          {formatTime(itemDuration(item))}
        </span>
      </button>
    </li>
  );
}
