import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { routes, type RouteResult } from '@takes/contract';
import { api, ApiError } from '../../lib/api';
import type { VisitorCommentBody } from './visitor-commenting';

const links = routes.collectionLinks;

/** What anyone holding a collection link (and its password, if it has one) may see. */
export type SharedCollectionPage = RouteResult<typeof links.openCollectionLink>;
export type SharedCollectionPageItem = SharedCollectionPage['items'][number];
export type ReceiptEvent = 'play' | 'played_30s' | 'played_90' | 'download';

export const collectionShareKeys = {
  page: (hash: string) => ['collection-share', hash] as const,
  comments: (hash: string, itemId: string) =>
    ['collection-share', hash, 'items', itemId, 'comments'] as const,
};

/** 4xx are answers (unknown, expired, locked, too many tries), not hiccups worth retrying. */
function retryServerErrors(count: number, error: Error): boolean {
  return !(error instanceof ApiError && error.status < 500) && count < 1;
}

export function useSharedCollection(hash: string) {
  return useQuery({
    queryKey: collectionShareKeys.page(hash),
    queryFn: ({ signal }) => api.call(links.openCollectionLink, { params: { hash }, signal }),
    retry: retryServerErrors,
  });
}

/** Sends the password; the server sets the link's cookie, then the collection is read again. */
export function useUnlockCollectionLink(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api.call(links.unlockCollectionLink, { params: { hash }, body: { password } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionShareKeys.page(hash) }),
  });
}

/** The comments this link shows on one item (null: no item chosen, nothing is asked). */
export function useCollectionItemComments(hash: string, itemId: string | null) {
  return useQuery({
    queryKey: collectionShareKeys.comments(hash, itemId ?? ''),
    queryFn: ({ signal }) =>
      api.call(links.listCollectionLinkItemComments, {
        params: { hash, itemId: itemId ?? '' },
        signal,
      }),
    enabled: itemId !== null,
    retry: retryServerErrors,
  });
}

export function useAddCollectionItemComment(hash: string, itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: VisitorCommentBody) =>
      api.call(links.addCollectionLinkItemComment, { params: { hash, itemId }, body: comment }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: collectionShareKeys.comments(hash, itemId) }),
  });
}

/**
 * Sends listen receipts ('play', 'played_30s', 'played_90', 'download') for the link's items:
 * a stable function, fire and forget. Counting must never get in the listener's way, so a
 * failed receipt is dropped quietly.
 */
export function useRecordCollectionReceipt(hash: string) {
  return useCallback(
    (itemId: string, event: ReceiptEvent) => {
      api
        .call(links.recordCollectionLinkReceipt, { params: { hash, itemId }, body: { event } })
        .catch(() => undefined);
    },
    [hash],
  );
}
