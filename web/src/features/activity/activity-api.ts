import { useInfiniteQuery } from '@tanstack/react-query';
import { routes, type ActivityPage } from '@takes/contract';
import { api } from '../../lib/api';

const activity = routes.activity;

/** Live updates refresh every query whose key starts with 'activity'. */
export const activityKeys = {
  all: ['activity'] as const,
  project: (projectId: string) => ['activity', 'project', projectId] as const,
  repo: (repoId: string) => ['activity', 'repo', repoId] as const,
};

/** Which activity a panel reads: a project's or a repository's. */
export type ActivitySource = { projectId: string } | { repoId: string };

export const ACTIVITY_PAGE_SIZE = 20;

function fetchPage(
  source: ActivitySource,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<ActivityPage> {
  const query = { limit: ACTIVITY_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
  return 'projectId' in source
    ? api.call(activity.listProjectActivity, {
        params: { projectId: source.projectId },
        query,
        signal,
      })
    : api.call(activity.listRepoActivity, { params: { id: source.repoId }, query, signal });
}

/** Newest first, a page at a time; `fetchNextPage` is 'Load more'. */
export function useActivity(source: ActivitySource) {
  return useInfiniteQuery({
    queryKey:
      'projectId' in source
        ? activityKeys.project(source.projectId)
        : activityKeys.repo(source.repoId),
    queryFn: ({ pageParam, signal }) => fetchPage(source, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
