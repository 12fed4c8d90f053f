import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '@takes/contract';
import { api } from '../../lib/api';

const comments = routes.comments;

export interface NewComment {
  content: string;
  timestamp: number | null;
  /** The end of a passage (a range comment); absent for a point or no time. */
  end_timestamp?: number | null;
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

/** The owner's view of a version's comments, oldest first (the server orders them). */
export function useVersionComments(versionId: string, includeResolved: boolean, previous = false) {
  return useQuery({
    queryKey: previous
      ? [...commentKeys.version(versionId, includeResolved), 'previous']
      : commentKeys.version(versionId, includeResolved),
    queryFn: ({ signal }) =>
      api.call(comments.listVersionComments, {
        params: { versionId },
        query: {
          resolved: includeResolved ? 'include' : 'exclude',
          ...(previous ? { include: 'previous' as const } : {}),
        },
        signal,
      }),
    enabled: versionId !== '',
  });
}

function useInvalidateVersionComments(versionId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: commentKeys.versionAll(versionId) });
}

/**
 * Adds a comment to the version; a reply to an earlier version's comment carried onto it
 * (`on_version`) is posted on that comment's own version: it acts on the original.
 */
export function useAddVersionComment(versionId: string) {
  const invalidate = useInvalidateVersionComments(versionId);
  return useMutation({
    mutationFn: ({ on_version, ...comment }: NewComment & { on_version?: string }) =>
      api.call(comments.addVersionComment, {
        params: { versionId: on_version ?? versionId },
        body: comment,
      }),
    onSuccess: invalidate,
  });
}

export function useSetCommentResolved(versionId: string) {
  const invalidate = useInvalidateVersionComments(versionId);
  return useMutation({
    mutationFn: ({ id, resolved }: { id: string; resolved: boolean }) =>
      api.call(comments.setCommentResolved, { params: { commentId: id }, body: { resolved } }),
    onSuccess: invalidate,
  });
}

export function useDeleteComment(versionId: string) {
  const invalidate = useInvalidateVersionComments(versionId);
  return useMutation({
    mutationFn: (id: string) => api.call(comments.deleteComment, { params: { commentId: id } }),
    onSuccess: invalidate,
  });
}

/** A shared link's comments, for anyone holding the link. */
export function useLinkComments(hash: string, enabled = true) {
  return useQuery({
    queryKey: commentKeys.link(hash),
    queryFn: ({ signal }) => api.call(comments.listShareLinkComments, { params: { hash }, signal }),
    enabled: enabled && hash !== '',
  });
}

export function useAddLinkComment(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: NewComment & { visitor_name?: string }) =>
      api.call(comments.addShareLinkComment, { params: { hash }, body: comment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commentKeys.link(hash) }),
  });
}
