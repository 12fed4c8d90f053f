import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type RouteResult } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

const sharing = routes.sharing;

/** What anyone holding the link may see. */
export type SharedVersion = RouteResult<typeof sharing.openShareLink>;

export interface CreateLinkInput {
  name?: string;
  download_enabled: boolean;
  expires_at: string | null;
  listeners_see_each_other: boolean;
  /** 'Allow approval': the link's listeners may set the review status. */
  allow_approval: boolean;
  /** Listeners must enter it before they see or hear anything (8 to 200 characters). */
  password?: string;
}

/**
 * Changes a live link's options ('Allow approval', "Listeners see each other's comments", its
 * password: a new one ends every earlier unlock, null removes it). Settles once the list has been
 * read again.
 */
export function useUpdateLink(versionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      linkId,
      ...body
    }: {
      linkId: string;
      allow_approval?: boolean;
      listeners_see_each_other?: boolean;
      password?: string | null;
    }) => api.call(sharing.updateShareLink, { params: { linkId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.links(versionId) }),
  });
}

/** How often a share page asks again while its audio is still being processed. */
export const PROCESSING_POLL_MS = 3000;

export const shareKeys = {
  shared: (hash: string) => ['share', hash] as const,
  /** A version's links, for its owner (plays included). */
  links: (versionId: string) => ['share-links', versionId] as const,
};

export function sharedAudioUrl(hash: string): string {
  return api.url(sharing.streamShareLink, { params: { hash } });
}

export function sharedDownloadUrl(hash: string): string {
  return api.url(sharing.downloadShareLink, { params: { hash } });
}

/**
 * The version-link lookup's answer for a collection link's key: 404 'link_is_collection' (the
 * page then opens the collection instead).
 */
export function isCollectionLinkAnswer(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'link_is_collection';
}

/**
 * The version-link lookup's answer for a blind test's key: 404 'link_is_blind_test' (the page
 * then opens the blind test instead).
 */
export function isBlindTestAnswer(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'link_is_blind_test';
}

/**
 * 401 'This link needs a password': the link (a version's or a collection's) is protected and not
 * unlocked in this browser.
 */
export function isLockedAnswer(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'link_password_required';
}

export function useSharedVersion(hash: string) {
  return useQuery({
    queryKey: shareKeys.shared(hash),
    queryFn: ({ signal }) => api.call(sharing.openShareLink, { params: { hash }, signal }),
    // 404 (unknown or revoked) and 410 (expired) are answers, not hiccups worth retrying.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
    // Until the link's audio exists (a fresh upload being processed), ask again now and then.
    refetchInterval: (query) => {
      const version = query.state.data?.version;
      return version && !version.audio_ready && version.status !== 'failed'
        ? PROCESSING_POLL_MS
        : false;
    },
  });
}

/** Sends the password; the server sets the link's cookie, then the version is read again. */
export function useUnlockShareLink(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api.call(sharing.unlockShareLink, { params: { hash }, body: { password } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.shared(hash) }),
  });
}

export function useShareLinks(versionId: string) {
  return useQuery({
    queryKey: shareKeys.links(versionId),
    queryFn: ({ signal }) => api.call(sharing.listShareLinks, { params: { versionId }, signal }),
  });
}

export function useCreateLink(versionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateLinkInput) =>
      api.call(sharing.createShareLink, { params: { versionId }, body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.links(versionId) }),
  });
}
