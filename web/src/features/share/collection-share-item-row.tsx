import { linkButton } from '../../ui/button-styles';
import { formatTime } from '../player/format-time';
import type { SharedCollectionPageItem } from './collection-share-api';
import { sameOriginPath } from '../../lib/same-origin';

/** One item of the shared collection: its number, Play/Pause, title, duration, Comments, Download. */
export function ItemRow({
  item,
  number,
  playable,
  current,
  playing,
  selected,
  onPlay,
  onShowComments,
}: {
  item: SharedCollectionPageItem;
  number: number;
  playable: boolean;
  current: boolean;
  playing: boolean;
  selected: boolean;
  onPlay: () => void;
  onShowComments: () => void;
}) {
  const downloadUrl = sameOriginPath(item.download_url);
  return (
    <li
      aria-current={current ? 'true' : undefined}
      data-item={item.id}
      className={`flex flex-wrap items-center gap-3 px-3 py-2 ${current ? 'bg-indigo-50 dark:bg-indigo-950/40' : ''}`}
    >
      <span aria-hidden="true" className="w-6 text-right text-sm text-zinc-500 tabular-nums">
        {number}
      </span>
      <button
        type="button"
        onClick={onPlay}
        disabled={!playable}
        aria-label={`${playing ? 'Pause' : 'Play'} “${item.title}”`}
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor">
          <path d={playing ? 'M7 5h4v14H7zM13 5h4v14h-4z' : 'M8 5v14l11-7z'} />
        </svg>
      </button>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate font-medium">
          {item.title}
          {current ? (
            <span className="ml-2 text-xs font-semibold text-indigo-700 dark:text-indigo-300">
              {playing ? 'Playing' : 'Paused'}
            </span>
          ) : null}
        </span>
        <span className="truncate text-sm text-zinc-600 dark:text-zinc-300">
          {item.project_name}
        </span>
      </span>
      <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-300">
        {formatTime(item.duration)}
      </span>
      <span className="flex items-center gap-3">
        {item.commentable ? (
          <button
            type="button"
            className={linkButton}
            aria-pressed={selected}
            aria-label={`Comments on “${item.title}”`}
            aria-controls="collection-comments"
            onClick={onShowComments}
          >
            Comments
          </button>
        ) : null}
        {downloadUrl ? (
          // The download route counts the download in the link's receipts itself.
          <a href={downloadUrl} download className={linkButton}>
            Download<span className="sr-only"> “{item.title}”</span>
          </a>
        ) : null}
      </span>
    </li>
  );
}
