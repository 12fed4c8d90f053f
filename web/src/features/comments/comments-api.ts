import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Comment, ErrorBody } from '@takes/contract';
import { ApiError, apiGet, apiPatch, apiPost } from '../../lib/api';

export interface NewComment {
  content: string;
  timestamp: number | null;
  parent_id?: string | null;
  /** Owner comments only: the visitor route has no such field. */
  team_only?: boolean;
}

export const commentKeys = {
  version: (versionId: string, includeResolved: boolean) =>
    ['comments', 'version', versionId, includeResolved ? 'include' : 'exclude'] as const,
  versionAll: (versionId: string) => ['comments', 'version', versionId] as const,
  link: (hash: string) => ['comments', 'link', hash] as const,
};

/** `DELETE` with the same error shape as lib/api (which has no delete helper yet). */
async function apiDelete(path: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'DELETE',
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'Something went wrong. Please try again.', undefined);
  }
  if (response.ok) return;
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined;
  const serverMessage = typeof body?.error === 'string' ? body.error : undefined;
  throw new ApiError(
    response.status,
    serverMessage ?? `Request failed with status ${response.status}`,
    serverMessage,
  );
}

/** The owner's view of a version's comments, oldest first (the server orders them). */
export function useVersionComments(versionId: string, includeResolved: boolean) {
  return useQuery({
    queryKey: commentKeys.version(versionId, includeResolved),
    queryFn: ({ signal }) =>
      apiGet<Comment[]>(
        `/api/versions/${versionId}/comments?resolved=${includeResolved ? 'include' : 'exclude'}`,
        { signal },
      ),
    enabled: versionId !== '',
  });
}

function useInvalidateVersionComments(versionId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: commentKeys.versionAll(versionId) });
}

export function useAddVersionComment(versionId: string) {
  const invalidate = useInvalidateVersionComments(versionId);
  return useMutation({
    mutationFn: (comment: NewComment) =>
      apiPost<Comment>(`/api/versions/${versionId}/comments`, comment),
    onSuccess: invalidate,
  });
}

export function useSetCommentResolved(versionId: string) {
  const invalidate = useInvalidateVersionComments(versionId);
  return useMutation({
    mutationFn: ({ id, resolved }: { id: string; resolved: boolean }) =>
      apiPatch<Comment>(`/api/comments/${id}`, { resolved }),
    onSuccess: invalidate,
  });
}

export function useDeleteComment(versionId: string) {
  const invalidate = useInvalidateVersionComments(versionId);
  return useMutation({
    mutationFn: (id: string) => apiDelete(`/api/comments/${id}`),
    onSuccess: invalidate,
  });
}

/** A shared link's comments, for anyone holding the link. */
export function useLinkComments(hash: string, enabled = true) {
  return useQuery({
    queryKey: commentKeys.link(hash),
    queryFn: ({ signal }) => apiGet<Comment[]>(`/api/links/hash/${hash}/comments`, { signal }),
    enabled: enabled && hash !== '',
  });
}

export function useAddLinkComment(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: NewComment & { visitor_name?: string }) =>
      apiPost<Comment>(`/api/links/hash/${hash}/comments`, comment),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commentKeys.link(hash) }),
  });
}
