import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { may, type Collection, type CollectionItem } from '@takes/contract';
import { ApiError, errorMessage } from '../../lib/api';
import { formatDate, pluralize } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { PageSpinner } from '../../ui/spinner';
import { Tabs, type TabItem } from '../../ui/tabs';
import { formatTime } from '../player/format-time';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';
import { MembersButton } from '../members/members-button';
import { RoleBadge } from '../members/role-badge';
import { repoPagePath } from '../bounces/bounce-track';
import { useRowPlay } from '../projects/use-row-play';
import { CollectionCoverControls } from './collection-cover';
import { CollectionFormModal } from './collection-form-modal';
import { itemTitle, UNAVAILABLE_REASONS } from './collection-format';
import { CollectionLinksTab } from './collection-links-tab';
import {
  collectionKeys,
  reorderCollection,
  useCollection,
  useDeleteCollection,
  useRemoveCollectionItem,
  useUpdateCollection,
} from './collections-api';
import { CollectionCoverImage } from './cover-image';
import { ShareCollectionDialog } from './share-collection-dialog';

export const STALE_ORDER_MESSAGE = 'The collection changed; reloaded.';

type CollectionTab = 'items' | 'links';

const TABS: readonly TabItem<CollectionTab>[] = [
  { id: 'items', label: 'Items' },
  { id: 'links', label: 'Links' },
];

const smallButton =
  'rounded px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-40 dark:text-zinc-200 dark:hover:bg-zinc-700';

export function CollectionPage() {
  const { id = '' } = useParams();
  const collection = useCollection(id);
  useDocumentTitle(`${collection.data?.name ?? 'Collection'} · Takes`);

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 sm:px-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/collections" className="text-indigo-700 hover:underline dark:text-indigo-300">
          Collections
        </Link>
      </nav>
      {collection.isPending ? (
        <PageSpinner label="Loading collection" />
      ) : collection.isError ? (
        <Alert tone="error">{errorMessage(collection.error, 'Failed to load')}</Alert>
      ) : (
        <CollectionView collection={collection.data} />
      )}
    </div>
  );
}

/**
 * The collection's header, its items and (for the owner) its links. What the caller may change
 * follows their role: an editor adds, removes and reorders items and changes the cover; only the
 * owner renames, deletes and shares it. Every member may play it and see its members.
 */
function CollectionView({ collection }: { collection: Collection }) {
  const navigate = useNavigate();
  const update = useUpdateCollection(collection.id);
  const remove = useDeleteCollection(collection.id);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [tab, setTab] = useState<CollectionTab>('items');
  const { role } = collection;
  const shares = may(role, 'shareCollection');
  const items = <ItemList collection={collection} editable={may(role, 'editItems')} />;

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <CollectionCoverImage
          url={collection.coverUrl}
          alt={`Cover of ${collection.name}`}
          testId="collection-cover"
          className="size-32 shrink-0 rounded-lg"
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-3xl font-bold tracking-tight break-words text-zinc-900 dark:text-white">
              {collection.name}
            </h1>
            <RoleBadge role={role} />
          </div>
          {collection.description && (
            <p className="mt-1 text-zinc-600 dark:text-zinc-300">{collection.description}</p>
          )}
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            {pluralize(collection.items.length, 'item', 'items')} · Total{' '}
            {formatTime(collection.totalDuration)} · Updated {formatDate(collection.updatedAt)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <PlayAllButton collection={collection} />
          <MembersButton
            target={{ kind: 'collection', id: collection.id }}
            targetName={collection.name}
          />
          {shares && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => setSharing(true)}
            >
              Share collection
            </button>
          )}
          {may(role, 'rename') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          )}
          {may(role, 'editCover') && <CollectionCoverControls collection={collection} />}
          {may(role, 'delete') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => setDeleting(true)}
            >
              Delete
            </button>
          )}
        </div>
      </div>

      {/* The links are the owner's alone; everybody else sees the items without tabs. */}
      {shares ? (
        <Tabs label="Collection" items={TABS} selected={tab} onSelect={setTab}>
          {tab === 'items' ? (
            items
          ) : (
            <CollectionLinksTab collection={collection} onShare={() => setSharing(true)} />
          )}
        </Tabs>
      ) : (
        items
      )}

      {shares && sharing && (
        <ShareCollectionDialog
          collectionId={collection.id}
          collectionName={collection.name}
          onClose={() => setSharing(false)}
        />
      )}

      {editing && (
        <CollectionFormModal
          title="Edit collection"
          submitLabel="Save"
          pendingLabel="Saving..."
          initial={{ name: collection.name, description: collection.description }}
          pending={update.isPending}
          error={update.isError ? errorMessage(update.error, 'Failed to save') : null}
          onClose={() => {
            setEditing(false);
            update.reset();
          }}
          onSubmit={(fields) =>
            update.mutate(fields, {
              onSuccess: () => {
                setEditing(false);
                update.reset();
              },
            })
          }
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          title="Delete collection"
          description={`Delete “${collection.name}”? The versions in it stay where they are.`}
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to delete collection') : null}
          onClose={() => {
            setDeleting(false);
            remove.reset();
          }}
          onConfirm={() =>
            remove.mutate(undefined, { onSuccess: () => void navigate('/collections') })
          }
        />
      )}
    </>
  );
}

type FocusTarget = 'handle' | 'up' | 'down';

/**
 * The items in order. `editable` (an editor or the owner) adds the reorder handle (drag, or
 * Alt+Arrow keys), Up, Down and Remove; without it the items only play.
 */
function ItemList({ collection, editable }: { collection: Collection; editable: boolean }) {
  const queryClient = useQueryClient();
  const removeItem = useRemoveCollectionItem(collection.id);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const focusNext = useRef<{ id: string; target: FocusTarget } | null>(null);
  const items = collection.items;
  const key = collectionKeys.one(collection.id);

  // Focus follows the moved item to its new place.
  useEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    focusNext.current = null;
    const button = buttons.current.get(`${next.id}:${next.target}`);
    const target = button && !button.disabled ? button : buttons.current.get(`${next.id}:handle`);
    target?.focus();
  });

  function register(id: string, target: FocusTarget) {
    return (element: HTMLButtonElement | null) => {
      const name = `${id}:${target}`;
      if (element) buttons.current.set(name, element);
      else buttons.current.delete(name);
    };
  }

  /**
   * Moves the item `id` to `to(its current index)`. The current order is read from the cache, not
   * from this render: a second key press can arrive before the first move has re-rendered.
   */
  function move(id: string, to: (from: number) => number, focus: FocusTarget) {
    const previous = queryClient.getQueryData<Collection>(key) ?? collection;
    const current = previous.items;
    const from = current.findIndex((item) => item.id === id);
    const moved = current[from];
    const target = to(from);
    if (!moved || target < 0 || target >= current.length || from === target) return;
    const reordered = [...current];
    reordered.splice(from, 1);
    reordered.splice(target, 0, moved);
    const next = reordered.map((item, position) => ({ ...item, position }));
    setError(null);
    focusNext.current = { id: moved.id, target: focus };
    queryClient.setQueryData<Collection>(key, { ...previous, items: next });
    setAnnouncement(`Moved "${itemTitle(moved)}" to position ${target + 1} of ${next.length}`);
    reorderCollection(
      collection.id,
      next.map((item) => item.id),
    ).then(
      (saved) => {
        // A later move is still on its way: its answer brings the order shown now.
        const shown = queryClient.getQueryData<Collection>(key)?.items.map((item) => item.id);
        if (shown && shown.join() !== next.map((item) => item.id).join()) return;
        queryClient.setQueryData(key, saved);
      },
      (failure: unknown) => {
        if (failure instanceof ApiError && failure.status === 409) {
          setError(STALE_ORDER_MESSAGE);
          void queryClient.invalidateQueries({ queryKey: key });
          return;
        }
        queryClient.setQueryData(key, previous);
        setError(errorMessage(failure, 'Failed to reorder'));
      },
    );
  }

  function onHandleKeyDown(event: KeyboardEvent, id: string) {
    if (!event.altKey) return;
    if (event.key === 'ArrowUp') {
      event.preventDefault();
      move(id, (from) => from - 1, 'handle');
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      move(id, (from) => from + 1, 'handle');
    }
  }

  function onDrop(event: DragEvent, index: number) {
    event.preventDefault();
    const id = dragging;
    setDragging(null);
    if (id) move(id, () => index, 'handle');
  }

  return (
    <section aria-labelledby="items-heading" className="space-y-3">
      <h2 id="items-heading" className="sr-only">
        Items
      </h2>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {removeItem.isError && (
        <Alert tone="error">{errorMessage(removeItem.error, 'Failed to remove')}</Alert>
      )}
      {editable && (
        <p id="reorder-help" className="sr-only">
          Press Alt with Arrow Up or Arrow Down to move the item.
        </p>
      )}
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
          Nothing in this collection yet.{editable && ' Add versions from a project page.'}
        </p>
      ) : (
        <ol
          aria-label="Collection items"
          className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-950"
        >
          {items.map((item, index) => {
            const title = itemTitle(item);
            return (
              <li
                key={item.id}
                data-item={item.id}
                onDragOver={(event) => {
                  if (editable && dragging) event.preventDefault();
                }}
                onDrop={(event) => {
                  if (editable) onDrop(event, index);
                }}
                className={`flex flex-wrap items-center gap-3 px-3 py-2 ${
                  item.unavailable ? 'text-zinc-500 dark:text-zinc-400' : ''
                } ${dragging === item.id ? 'opacity-50' : ''}`}
              >
                <span className="w-6 text-right text-sm text-zinc-500 tabular-nums">
                  {index + 1}
                </span>
                {editable && (
                  <button
                    ref={register(item.id, 'handle')}
                    type="button"
                    draggable
                    onDragStart={(event) => {
                      event.dataTransfer.effectAllowed = 'move';
                      event.dataTransfer.setData('text/plain', item.id);
                      setDragging(item.id);
                    }}
                    onDragEnd={() => setDragging(null)}
                    onKeyDown={(event) => onHandleKeyDown(event, item.id)}
                    aria-label={`Reorder "${title}"`}
                    aria-describedby="reorder-help"
                    title="Drag, or Alt+Arrow keys to move"
                    className="cursor-grab rounded p-1 text-zinc-500 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800"
                  >
                    <svg
                      aria-hidden="true"
                      viewBox="0 0 24 24"
                      className="size-4"
                      fill="currentColor"
                    >
                      <path d="M9 5h2v2H9zM13 5h2v2h-2zM9 11h2v2H9zM13 11h2v2h-2zM9 17h2v2H9zM13 17h2v2h-2z" />
                    </svg>
                  </button>
                )}
                {item.unavailable ? (
                  <span className="min-w-0 flex-1 text-sm italic">
                    {UNAVAILABLE_REASONS[item.reason]}
                  </span>
                ) : (
                  <AvailableItem item={item} collection={collection} />
                )}
                {editable && (
                  <span className="flex items-center gap-1">
                    <button
                      ref={register(item.id, 'up')}
                      type="button"
                      className={smallButton}
                      disabled={index === 0}
                      onClick={() => move(item.id, (from) => from - 1, 'up')}
                      aria-label={`Move up "${title}"`}
                    >
                      Up
                    </button>
                    <button
                      ref={register(item.id, 'down')}
                      type="button"
                      className={smallButton}
                      disabled={index === items.length - 1}
                      onClick={() => move(item.id, (from) => from + 1, 'down')}
                      aria-label={`Move down "${title}"`}
                    >
                      Down
                    </button>
                    <button
                      type="button"
                      className={smallButton}
                      disabled={removeItem.isPending}
                      onClick={() => removeItem.mutate(item.id)}
                      aria-label={`Remove "${title}"`}
                    >
                      Remove
                    </button>
                  </span>
                )}
                {item.linkUnavailableReason && (
                  <p className="basis-full pl-9 text-xs text-amber-800 dark:text-amber-300">
                    {item.linkUnavailableReason}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

type AvailableCollectionItem = Extract<CollectionItem, { unavailable: false }>;

/**
 * An item as the global player's track. A version's is the version's own (so the version routes
 * know it); a bounce's is the one the Bounces and repository pages play (its id, the repository as
 * artist, the repository page as source).
 */
function itemTrack(item: AvailableCollectionItem): PlayerTrack {
  if (item.kind === 'bounce') {
    return {
      id: item.bounceId,
      title: itemTitle(item),
      artist: item.repoName,
      audioUrl: item.streamUrl,
      sourceUrl: repoPagePath(item.repoId),
      duration: item.duration,
    };
  }
  return {
    id: item.versionId,
    title: itemTitle(item),
    artist: item.projectName,
    album: item.projectName,
    audioUrl: item.streamUrl,
    versionId: item.versionId,
    projectId: item.projectId,
    versionNumber: item.versionNumber,
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
function PlayAllButton({ collection }: { collection: Collection }) {
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

function AvailableItem({
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
            to={item.kind === 'bounce' ? repoPagePath(item.repoId) : `/projects/${item.projectId}`}
            className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            {item.kind === 'bounce' ? item.repoName : item.projectName}
          </Link>{' '}
          · {item.branchName}
        </span>
      </span>
      <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-300">
        {formatTime(item.duration)}
      </span>
    </>
  );
}
