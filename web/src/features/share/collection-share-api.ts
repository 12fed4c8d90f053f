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
  zip: (hash: string, zipId: string) => ['collection-share', hash, 'zip', zipId] as const,
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

/** A 'Download all' zip of a collection link: its status and progress. */
export type CollectionZipStatus = RouteResult<typeof links.getCollectionLinkZip>;

/** While a zip is being prepared its status is asked for every second. */
const ZIP_POLL_MS = 1000;

/** Starts (or is handed again) a zip of the link's items: 'Download all'. */
export function useStartCollectionZip(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(links.startCollectionLinkZip, { params: { hash } }),
    onSuccess: (zip) => queryClient.setQueryData(collectionShareKeys.zip(hash, zip.id), zip),
  });
}

/** A zip's status, asked again every second until it is ready or failed (null: none asked). */
export function useCollectionZip(hash: string, zipId: string | null) {
  return useQuery({
    queryKey: collectionShareKeys.zip(hash, zipId ?? ''),
    queryFn: ({ signal }) =>
      api.call(links.getCollectionLinkZip, { params: { hash, zipId: zipId ?? '' }, signal }),
    enabled: zipId !== null,
    retry: retryServerErrors,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'pending' || status === 'building' ? ZIP_POLL_MS : false;
    },
  });
}

/** The address of a zip's file (a same-origin link with `download`). */
export function collectionZipFileUrl(hash: string, zipId: string): string {
  return api.url(links.downloadCollectionLinkZip, { params: { hash, zipId } });
}
