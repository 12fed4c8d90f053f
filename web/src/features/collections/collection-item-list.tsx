import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { Collection } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { itemTitle, UNAVAILABLE_REASONS } from './collection-format';
import { AvailableItem } from './collection-item-play';
import { useRemoveCollectionItem } from './collections-api';
import { useReorderCollection } from './use-reorder-collection';

const smallButton =
  'rounded px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-40 dark:text-zinc-200 dark:hover:bg-zinc-700';

type FocusTarget = 'handle' | 'up' | 'down';

/**
 * The items in order. `editable` (an editor or the owner) adds the reorder handle (drag, or
 * Alt+Arrow keys), Up, Down and Remove; without it the items only play.
 */
export function ItemList({ collection, editable }: { collection: Collection; editable: boolean }) {
  const removeItem = useRemoveCollectionItem(collection.id);
  const reorder = useReorderCollection(collection);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const focusNext = useRef<{ id: string; target: FocusTarget } | null>(null);
  const items = collection.items;

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

  /** Moves item `id` to `to(its index)`; focus follows it and the move is announced. */
  function move(id: string, to: (from: number) => number, focus: FocusTarget) {
    const moved = reorder.move(id, to);
    if (!moved) return;
    focusNext.current = { id, target: focus };
    setAnnouncement(
      `Moved "${itemTitle(moved.item)}" to position ${moved.to + 1} of ${moved.items.length}`,
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
      {reorder.error && <Alert tone="error">{reorder.error}</Alert>}
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
                {item.link_unavailable_reason && (
                  <p className="basis-full pl-9 text-xs text-amber-800 dark:text-amber-300">
                    {item.link_unavailable_reason}
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
