import { COLLECTION_LINK_MESSAGES, type Comment } from '@takes/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { sameOriginPath } from '../../lib/same-origin';
import { useDocumentTitle } from '../../lib/use-document-title';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { CommentList } from '../comments/comment-list';
import { SEEK_AFTER_START_MS } from '../comments/use-seek-to-time';
import { formatTime } from '../player/format-time';
import { CollectionCoverImage } from '../collections/cover-image';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';
import {
  useAddCollectionItemComment,
  useCollectionItemComments,
  useRecordCollectionReceipt,
  useSharedCollection,
  useUnlockCollectionLink,
  type SharedCollectionPage,
  type SharedCollectionPageItem,
} from './collection-share-api';
import { DownloadAll } from './download-all';
import { LinkFailure, lookupFailure } from './link-failure';
import { LinkPasswordForm } from './link-password-form';
import { isLockedAnswer } from './share-api';
import { useListenReceipts } from './use-listen-receipts';
import { VisitorCommenting } from './visitor-commenting';
import { useVisitorName } from './visitor-name';

// The page plays, downloads and shows nothing from another origin, whatever an answer says.
export { sameOriginPath };

/** The global player's track for an item; it streams with the link's cookie, no session needed. */
function itemTrack(hash: string, item: SharedCollectionPageItem): PlayerTrack | null {
  const audioUrl = sameOriginPath(item.streamUrl);
  if (!audioUrl) return null;
  return {
    // No versionId: the owner's version routes are not the visitor's to call.
    id: `collection-share:${hash}:${item.id}`,
    title: item.title,
    artist: item.projectName,
    album: item.projectName,
    audioUrl,
    bypassAuth: true,
    shareable: false,
    duration: item.duration,
  };
}

/** The sum of the known durations, or null when none is known. */
function totalDuration(items: readonly SharedCollectionPageItem[]): number | null {
  const known = items.flatMap((item) => (item.duration === null ? [] : [item.duration]));
  return known.length === 0 ? null : known.reduce((sum, seconds) => sum + seconds, 0);
}

/** /share/:hash for a collection link's key: the collection, behind its password if it has one. */
export function CollectionSharePage({ hash }: { hash: string }) {
  const page = useSharedCollection(hash);
  useDocumentTitle(page.data ? page.data.name : 'Shared collection');

  if (page.isPending) return <PageSpinner label="Loading shared collection" />;
  if (page.isError) {
    if (isLockedAnswer(page.error)) return <UnlockCollection hash={hash} />;
    return <LinkFailure title="Shared collection" message={lookupFailure(page.error)} />;
  }
  return <CollectionView hash={hash} collection={page.data} />;
}

function UnlockCollection({ hash }: { hash: string }) {
  const unlock = useUnlockCollectionLink(hash);
  return <LinkPasswordForm unlock={unlock} what="the collection" />;
}

/** Plays the list from one item and then seeks there (after the track has loaded). */
function useSeekInList(tracks: readonly (PlayerTrack | null)[]) {
  const player = useAudioPlayer();
  const { isCurrent, seek, resume, playQueue, audioElement } = player;
  const isPlaying = player.state.isPlaying;
  const cancelRef = useRef<(() => void) | null>(null);
  useEffect(() => () => cancelRef.current?.(), []);

  return useCallback(
    (index: number, seconds: number) => {
      const track = tracks[index];
      if (!track) return;
      cancelRef.current?.();
      cancelRef.current = null;
      if (isCurrent(track)) {
        seek(seconds);
        if (!isPlaying) resume();
        return;
      }
      const playable = tracks.filter((t): t is PlayerTrack => t !== null);
      playQueue(playable, playable.indexOf(track));
      // Loading a new source resets the position: seek once it has loaded (or after a moment).
      const onMetadata = () => seek(seconds);
      audioElement?.addEventListener('loadedmetadata', onMetadata, { once: true });
      const timer = setTimeout(() => seek(seconds), SEEK_AFTER_START_MS);
      cancelRef.current = () => {
        clearTimeout(timer);
        audioElement?.removeEventListener('loadedmetadata', onMetadata);
      };
    },
    [tracks, isCurrent, seek, resume, isPlaying, playQueue, audioElement],
  );
}

function CollectionView({ hash, collection }: { hash: string; collection: SharedCollectionPage }) {
  const player = useAudioPlayer();
  const { items } = collection;
  const tracks = useMemo(() => items.map((item) => itemTrack(hash, item)), [hash, items]);
  const playable = useMemo(() => tracks.filter((t): t is PlayerTrack => t !== null), [tracks]);
  const currentIndex = tracks.findIndex((track) => track !== null && player.isCurrent(track));
  const currentItem = currentIndex === -1 ? null : (items[currentIndex] ?? null);
  const isPlaying = currentItem !== null && player.state.isPlaying;
  const visitor = useVisitorName();
  // An item the visitor chose with its Comments button (or is writing about); else the playing
  // one; else the first that takes comments.
  const [picked, setPicked] = useState<string | null>(null);
  const selectedItem =
    items.find((item) => item.id === picked) ??
    currentItem ??
    items.find((item) => item.commentable) ??
    null;
  const selectedIndex = selectedItem ? items.indexOf(selectedItem) : -1;
  const seekInList = useSeekInList(tracks);
  const total = totalDuration(items);

  const record = useRecordCollectionReceipt(hash);
  const playerDuration = player.state.duration > 0 ? player.state.duration : null;
  useListenReceipts(
    {
      itemId: currentItem?.id ?? null,
      playing: isPlaying && !player.state.loading,
      position: currentItem ? player.state.currentTime : 0,
      duration: currentItem ? (currentItem.duration ?? playerDuration) : null,
      playbackRate: player.state.playbackRate,
    },
    record,
  );

  /** The collection from one item on, each going on to the next when it ends. */
  function playFrom(index: number) {
    const track = tracks[index];
    if (!track) return;
    setPicked(null);
    player.playQueue(playable, playable.indexOf(track));
  }

  return (
    <div className="mx-auto max-w-4xl px-4 py-6 sm:px-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        {sameOriginPath(collection.coverUrl) ? (
          <CollectionCoverImage
            url={collection.coverUrl}
            alt={collection.name}
            testId="shared-collection-cover"
            className="size-24 shrink-0 rounded-lg sm:size-32"
          />
        ) : null}
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-indigo-700 dark:text-indigo-300">
            Shared collection
          </p>
          <h1 className="mt-1 text-2xl font-bold break-words">{collection.name}</h1>
          {collection.description ? (
            <p className="mt-1 break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">
              {collection.description}
            </p>
          ) : null}
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            {items.length === 1 ? '1 item' : `${items.length} items`} · Total{' '}
            <span data-testid="collection-total" className="tabular-nums">
              {formatTime(total)}
            </span>
          </p>
        </div>
        <button
          type="button"
          className={primaryButton}
          disabled={playable.length === 0}
          onClick={() => {
            setPicked(null);
            player.playQueue(playable, 0);
          }}
        >
          Play all
        </button>
      </div>

      {collection.downloadEnabled && items.length > 0 ? (
        <DownloadAll hash={hash} collectionName={collection.name} />
      ) : null}

      {currentItem ? <NowPlaying item={currentItem} /> : null}

      <section aria-labelledby="collection-items-heading" className="mt-6">
        <h2 id="collection-items-heading" className="sr-only">
          Items
        </h2>
        {items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
            Nothing in this collection can be played right now.
          </p>
        ) : (
          <ol
            aria-labelledby="collection-items-heading"
            className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {items.map((item, index) => (
              <ItemRow
                key={item.id}
                item={item}
                number={index + 1}
                playable={tracks[index] !== null}
                current={index === currentIndex}
                playing={index === currentIndex && isPlaying}
                selected={item.id === selectedItem?.id}
                onPlay={() =>
                  index === currentIndex && isPlaying ? player.pause() : playFrom(index)
                }
                onShowComments={() => setPicked(item.id)}
              />
            ))}
          </ol>
        )}
      </section>

      {selectedItem && !selectedItem.commentable ? (
        // Nothing to read or write about an item that takes no comments (a bounce); the other
        // items' Comments buttons still control this place.
        <p id="collection-comments" className="mt-8 text-sm text-zinc-600 dark:text-zinc-300">
          {selectedItem.kind === 'bounce'
            ? COLLECTION_LINK_MESSAGES.noComments
            : `“${selectedItem.title}” takes no comments.`}
        </p>
      ) : selectedItem ? (
        // Writing about an item keeps its comments on screen when the next one starts.
        <div onFocus={() => setPicked(selectedItem.id)}>
          <ItemComments
            key={selectedItem.id}
            hash={hash}
            item={selectedItem}
            track={tracks[selectedIndex] ?? null}
            onSeek={(seconds) => seekInList(selectedIndex, seconds)}
            visitor={visitor}
            suggestedName={collection.recipientName}
          />
        </div>
      ) : null}
    </div>
  );
}

/**
 * The page's own transport (a share page has no player bar): the playing item, play/pause,
 * previous/next in the list and the position.
 */
function NowPlaying({ item }: { item: SharedCollectionPageItem }) {
  const player = useAudioPlayer();
  const { state, queue } = player;
  const duration = item.duration ?? (state.duration > 0 ? state.duration : null);
  const position = Math.min(state.currentTime, duration ?? state.currentTime);
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
        <span className="text-zinc-600 dark:text-zinc-300"> · {item.projectName}</span>
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

function ItemRow({
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
  const downloadUrl = sameOriginPath(item.downloadUrl);
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
          {item.projectName}
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

/** The comments this link shows on one item, and the visitor's own (name first). */
function ItemComments({
  hash,
  item,
  track,
  onSeek,
  visitor,
  suggestedName,
}: {
  hash: string;
  item: SharedCollectionPageItem;
  track: PlayerTrack | null;
  onSeek: (seconds: number) => void;
  visitor: ReturnType<typeof useVisitorName>;
  suggestedName: string | null;
}) {
  const comments = useCollectionItemComments(hash, item.id);
  const addComment = useAddCollectionItemComment(hash, item.id);
  const [replyingTo, setReplyingTo] = useState<Comment | null>(null);
  // Avatars come from this site only, like everything else on the page.
  const shown = useMemo(
    () =>
      comments.data?.map((comment) =>
        comment.avatar_url !== null && sameOriginPath(comment.avatar_url) === null
          ? { ...comment, avatar_url: null }
          : comment,
      ),
    [comments.data],
  );

  return (
    <section
      id="collection-comments"
      aria-labelledby="collection-comments-heading"
      className="mt-8 max-w-2xl"
    >
      <h2 id="collection-comments-heading" className="text-lg font-semibold">
        Comments on “{item.title}”
      </h2>
      <div className="mt-3">
        <CommentList
          comments={shown}
          isPending={comments.isPending}
          error={comments.error}
          onSeek={onSeek}
          onReply={setReplyingTo}
        />
      </div>
      <div className="mt-6">
        <VisitorCommenting
          track={track}
          visitor={visitor}
          suggestedName={suggestedName}
          onPost={(body) => addComment.mutateAsync(body)}
          pending={addComment.isPending}
          error={addComment.error}
          replyingTo={replyingTo}
          onCancelReply={() => setReplyingTo(null)}
        />
      </div>
    </section>
  );
}
