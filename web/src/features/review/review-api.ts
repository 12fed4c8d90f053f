import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type ReviewStatus } from '@takes/contract';
import { api } from '../../lib/api';
import { shareKeys } from '../share/share-api';

const review = routes.review;

export const reviewKeys = {
  version: (versionId: string) => ['review', versionId] as const,
};

/** A version's review status with every change (members). */
export function useVersionReview(versionId: string) {
  return useQuery({
    queryKey: reviewKeys.version(versionId),
    queryFn: ({ signal }) => api.call(review.getVersionReview, { params: { versionId }, signal }),
    enabled: versionId !== '',
  });
}

/**
 * The owner or an Editor sets the status; the version, its branch's rows, the project page and
 * the Bounces page show it, so they are read again.
 */
export function useSetVersionReview(versionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: ReviewStatus) =>
      api.call(review.setVersionReview, { params: { versionId }, body: { status } }),
    onSuccess: (data) => {
      queryClient.setQueryData(reviewKeys.version(versionId), data);
      for (const key of [['versions'], ['projects'], ['bounces'], ['activity']])
        void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** A share link's listener sets the status (when the link allows approval). */
export function useSetLinkReview(hash: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { status: ReviewStatus; visitor_name?: string }) =>
      api.call(review.setShareLinkReview, { params: { hash }, body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.shared(hash) }),
  });
}
