import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type CollectionLink, type CreateCollectionLinkBody } from '@takes/contract';
import { api } from '../../lib/api';
import { collectionKeys } from './collections-api';

const endpoints = routes.collectionLinks;

export const collectionLinkKeys = {
  /** A collection's share links, under the collection's own key (deleting it drops them too). */
  list: (collectionId: string) => [...collectionKeys.one(collectionId), 'links'] as const,
};

/** The collection's share links as its owner sees them, newest first (revoked ones too). */
export function useCollectionLinks(collectionId: string) {
  return useQuery({
    queryKey: collectionLinkKeys.list(collectionId),
    queryFn: ({ signal }) =>
      api
        .call(endpoints.listCollectionLinks, {
          params: { id: collectionId },
          signal,
          fallbackMessage: 'Failed to load the links',
        })
        .then((body) => body.links),
  });
}

/** One link, or one per recipient; answers the links made. */
export function useCreateCollectionLinks(collectionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCollectionLinkBody) =>
      api
        .call(endpoints.createCollectionLinks, {
          params: { id: collectionId },
          body,
          fallbackMessage: 'Failed to create the link',
        })
        .then((answer) => answer.links),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: collectionLinkKeys.list(collectionId) }),
  });
}

/** Revokes one link: it reads 'Revoked' at once, then the list is asked for again. */
export function useRevokeCollectionLink(collectionId: string) {
  const queryClient = useQueryClient();
  const key = collectionLinkKeys.list(collectionId);
  return useMutation({
    mutationFn: (linkId: string) =>
      api.call(endpoints.revokeCollectionLink, {
        params: { id: collectionId, linkId },
        fallbackMessage: 'Failed to revoke the link',
      }),
    onSuccess: (_answer, linkId) => {
      queryClient.setQueryData<CollectionLink[]>(key, (links) =>
        links?.map((link) => (link.id === linkId ? { ...link, revoked: true } : link)),
      );
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
