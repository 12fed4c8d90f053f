import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Collection, CollectionItem } from '@takes/contract';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { collectionKeys, reorderCollection } from './collections-api';

export const STALE_ORDER_MESSAGE = 'The collection changed; reloaded.';

/** A move of one item: the item, its new index and the whole new order. */
export interface ItemMove {
  item: CollectionItem;
  to: number;
  items: CollectionItem[];
}

/** `items` with item `id` moved to `to(its index)`, positions renumbered; null when it does not move. */
export function moveItem(
  items: readonly CollectionItem[],
  id: string,
  to: (from: number) => number,
): ItemMove | null {
  const from = items.findIndex((item) => item.id === id);
  const item = items[from];
  const target = to(from);
  if (!item || target < 0 || target >= items.length || from === target) return null;
  const reordered = [...items];
  reordered.splice(from, 1);
  reordered.splice(target, 0, item);
  return {
    item,
    to: target,
    items: reordered.map((entry, position) => ({ ...entry, position })),
  };
}

function sameOrder(a: readonly CollectionItem[], b: readonly CollectionItem[]): boolean {
  return a.length === b.length && a.every((item, index) => item.id === b[index]?.id);
}

/**
 * Reorders a collection's items optimistically: the new order shows at once, is sent whole, and
 * is rolled back with an error line if refused; a 409 (the collection changed meanwhile) reloads
 * it and says so. Once the last of several quick moves settles, the collection is reloaded.
 */
export function useReorderCollection(collection: Collection) {
  const queryClient = useQueryClient();
  const key = collectionKeys.one(collection.id);
  const mutationKey = [...key, 'reorder'];
  const [error, setError] = useState<string | null>(null);

  const mutation = useMutation({
    mutationKey,
    mutationFn: (items: CollectionItem[]) =>
      reorderCollection(
        collection.id,
        items.map((item) => item.id),
      ),
    onMutate: (items) => {
      // Not awaited: the new order must be in the cache before the next key press, which can
      // come in the same tick (the cancel itself happens at once; only its promise waits).
      void queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Collection>(key);
      if (previous) queryClient.setQueryData<Collection>(key, { ...previous, items });
      return { previous };
    },
    onSuccess: (saved, items) => {
      // A later move is still on its way: its answer brings the order shown now.
      const shown = queryClient.getQueryData<Collection>(key)?.items;
      if (shown && sameOrder(shown, items)) queryClient.setQueryData(key, saved);
    },
    onError: (failure, _items, context) => {
      if (failure instanceof ApiError && failure.status === 409) {
        setError(STALE_ORDER_MESSAGE);
        return;
      }
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      setError(errorMessage(failure, 'Failed to reorder'));
    },
    onSettled: () => {
      // Only the last move reloads: an earlier one's reload would undo the later moves on screen.
      if (queryClient.isMutating({ mutationKey }) > 1) return;
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });

  /**
   * Moves item `id` to `to(its current index)` and answers the move (null when it does not
   * move). The current order is read from the cache, not from a render: a second key press can
   * arrive before the first move has re-rendered.
   */
  function move(id: string, to: (from: number) => number): ItemMove | null {
    const shown = queryClient.getQueryData<Collection>(key)?.items ?? collection.items;
    const next = moveItem(shown, id, to);
    if (!next) return null;
    setError(null);
    mutation.mutate(next.items);
    return next;
  }

  return { move, error };
}
