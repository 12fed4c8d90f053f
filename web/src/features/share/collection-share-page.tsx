import { COLLECTION_LINK_MESSAGES } from '@takes/contract';
import { useMemo, useState } from 'react';
import { sameOriginPath } from '../../lib/same-origin';
import { useDocumentTitle } from '../../lib/use-document-title';
import { primaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { formatTime } from '../player/format-time';
import { CollectionCoverImage } from '../collections/cover-image';
import { useAudioPlayer, usePlayerPosition, type PlayerTrack } from '../player/use-audio-player';
import {
  useRecordCollectionReceipt,
  useSharedCollection,
  useUnlockCollectionLink,
  type SharedCollectionPage,
  type SharedCollectionPageItem,
} from './collection-share-api';
import { ItemComments } from './collection-share-comments';
import { ItemRow } from './collection-share-item-row';
import { NowPlaying } from './collection-share-now-playing';
import { RequestAccess } from './request-access';
import { DownloadAll } from './download-all';
import { LinkFailure, lookupFailure } from './link-failure';
import { LinkPasswordForm } from './link-password-form';
import { isLockedAnswer } from './share-api';
import { useListenReceipts, type ListenSample } from './use-listen-receipts';
import { useVisitorName } from './visitor-name';

// The page plays, downloads and shows nothing from another origin, whatever an answer says.
export { sameOriginPath };

/** The global player's track for an item; it streams with the link's cookie, no session needed. */
function itemTrack(hash: string, item: SharedCollectionPageItem): PlayerTrack | null {
  const audioUrl = sameOriginPath(item.stream_url);
  if (!audioUrl) return null;
  return {
    // No versionId: the owner's version routes are not the visitor's to call.
    id: `collection-share:${hash}:${item.id}`,
    title: item.title,
    artist: item.project_name,
    album: item.project_name,
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

/**
 * Reports the listener's plays of the page's items (listen receipts). Apart from the page, as it
 * follows the position: only this re-renders while an item plays.
 */
function ListenReceipts({
  hash,
  sample,
}: {
  hash: string;
  sample: Omit<ListenSample, 'position'>;
}) {
  const record = useRecordCollectionReceipt(hash);
  const position = usePlayerPosition(sample.itemId !== null);
  useListenReceipts({ ...sample, position }, record);
  return null;
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
  const total = totalDuration(items);
  const playerDuration = player.state.duration > 0 ? player.state.duration : null;

  /** The collection from one item on, each going on to the next when it ends. */
  function playFrom(index: number) {
    const track = tracks[index];
    if (!track) return;
    setPicked(null);
    player.playQueue(playable, playable.indexOf(track));
  }

  /** A comment's time: the item jumps there if it is playing, else the list plays from there. */
  function seekInList(index: number, seconds: number) {
    const track = tracks[index];
    if (!track) return;
    if (player.isCurrent(track)) player.playTrack(track, { startAt: seconds });
    else player.playQueue(playable, playable.indexOf(track), { startAt: seconds });
  }

  return (
    <div className="mx-auto max-w-4xl px-4 py-6 sm:px-6">
      <ListenReceipts
        hash={hash}
        sample={{
          itemId: currentItem?.id ?? null,
          playing: isPlaying && !player.state.loading,
          duration: currentItem ? (currentItem.duration ?? playerDuration) : null,
          playbackRate: player.state.playbackRate,
        }}
      />
      <div className="flex flex-wrap items-start justify-between gap-4">
        {sameOriginPath(collection.cover_url) ? (
          <CollectionCoverImage
            url={collection.cover_url}
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

      {collection.download_enabled && items.length > 0 ? (
        <DownloadAll hash={hash} collectionName={collection.name} />
      ) : null}

      {currentItem ? <NowPlaying item={currentItem} /> : null}

      {selectedItem && selectedItem.kind !== 'bounce' ? (
        // A collection may span projects: the request is for the project of the item heard.
        <div className="mt-4">
          <RequestAccess
            key={selectedItem.project_name}
            target={{ kind: 'collection', hash, itemId: selectedItem.id }}
            projectName={selectedItem.project_name}
          />
        </div>
      ) : null}

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
            suggestedName={collection.recipient_name}
          />
        </div>
      ) : null}
    </div>
  );
}
