import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type AddCollectionItemBody, type Collection } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

const endpoints = routes.collections;

export const collectionKeys = {
  all: ['collections'] as const,
  list: ['collections', 'list'] as const,
  one: (id: string) => ['collections', id] as const,
};

/** A 404 is an answer, not a hiccup worth retrying. */
function retryServerErrors(count: number, error: unknown): boolean {
  return !(error instanceof ApiError && error.status < 500) && count < 1;
}

export function useCollections(enabled = true) {
  return useQuery({
    queryKey: collectionKeys.list,
    queryFn: ({ signal }) =>
      api
        .call(endpoints.listCollections, { signal, fallbackMessage: 'Failed to load' })
        .then((body) => body.collections),
    enabled,
  });
}

export function useCollection(id: string) {
  return useQuery({
    queryKey: collectionKeys.one(id),
    queryFn: ({ signal }) =>
      api.call(endpoints.getCollection, {
        params: { id },
        signal,
        fallbackMessage: 'Failed to load',
      }),
    retry: retryServerErrors,
  });
}

function useRefreshList() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: collectionKeys.list });
}

export function useCreateCollection() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: (body: { name: string; description: string | null }) =>
      api.call(endpoints.createCollection, {
        body,
        fallbackMessage: 'Failed to create collection',
      }),
    onSuccess: refresh,
  });
}

/** Writes the collection the server answered into the cache, and refreshes the list. */
function useStoreCollection() {
  const queryClient = useQueryClient();
  return (collection: Collection) => {
    queryClient.setQueryData(collectionKeys.one(collection.id), collection);
    return queryClient.invalidateQueries({ queryKey: collectionKeys.list });
  };
}

export function useUpdateCollection(id: string) {
  const store = useStoreCollection();
  return useMutation({
    mutationFn: (body: { name?: string; description?: string | null }) =>
      api.call(endpoints.updateCollection, {
        params: { id },
        body,
        fallbackMessage: 'Failed to save',
      }),
    onSuccess: store,
  });
}

export function useDeleteCollection(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.call(endpoints.deleteCollection, {
        params: { id },
        fallbackMessage: 'Failed to delete collection',
      }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: collectionKeys.one(id) });
      return queryClient.invalidateQueries({ queryKey: collectionKeys.list });
    },
  });
}

export function useAddCollectionItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ collectionId, body }: { collectionId: string; body: AddCollectionItemBody }) =>
      api.call(endpoints.addCollectionItem, {
        params: { id: collectionId },
        body,
        fallbackMessage: 'Failed to add to collection',
      }),
    onSuccess: (_item, { collectionId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.list }),
        queryClient.invalidateQueries({ queryKey: collectionKeys.one(collectionId) }),
      ]),
  });
}

export function useRemoveCollectionItem(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) =>
      api.call(endpoints.removeCollectionItem, {
        params: { id, itemId },
        fallbackMessage: 'Failed to remove',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

export function reorderCollection(id: string, itemIds: string[]): Promise<Collection> {
  return api.call(endpoints.reorderCollection, {
    params: { id },
    body: { item_ids: itemIds },
    fallbackMessage: 'Failed to reorder',
  });
}

/** Sets or replaces the collection's cover; the answer (with its new cover_url) goes in the cache. */
export function useSetCollectionCover(id: string) {
  const store = useStoreCollection();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('cover_image', file);
      return api.call(endpoints.setCollectionCover, {
        params: { id },
        form,
        fallbackMessage: 'Cover upload failed',
      });
    },
    onSuccess: store,
  });
}

export function useRemoveCollectionCover(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.call(endpoints.deleteCollectionCover, {
        params: { id },
        fallbackMessage: 'Failed to remove the cover',
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.one(id) }),
        queryClient.invalidateQueries({ queryKey: collectionKeys.list }),
      ]),
  });
}
