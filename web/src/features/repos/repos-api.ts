import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type Bounce } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

const repos = routes.repos;

/** The pseudo-branch main reads at most 50 patches. */
export const PSEUDO_BRANCH_PATCH_LIMIT = 50;
/** The timeline shows up to 1000 commits; the commits endpoint answers at most 500. */
const COMMIT_LIMIT = 1000;
/** Processing status is polled every 3000 ms. */
const PROCESSING_POLL_MS = 3000;

export const repoKeys = {
  all: ['repos'] as const,
  list: ['repos', 'list'] as const,
  repo: (id: string) => ['repos', id] as const,
  branches: (id: string) => ['repos', id, 'branches'] as const,
  patches: (id: string) => ['repos', id, 'patches'] as const,
  commits: (id: string, branch: string) => ['repos', id, 'commits', branch] as const,
  bounces: (id: string, branch: string | null) => ['repos', id, 'bounces', branch] as const,
  commitBounces: (id: string, sha: string) => ['repos', id, 'commit', sha, 'bounces'] as const,
};

/** A 404 is an answer, not a hiccup worth retrying. */
function retryServerErrors(count: number, error: unknown): boolean {
  return !(error instanceof ApiError && error.status < 500) && count < 1;
}

const hasProcessing = (bounces: Bounce[] | undefined) =>
  bounces?.some((bounce) => bounce.status === 'processing') ?? false;

export function useRepositories() {
  return useQuery({
    queryKey: repoKeys.list,
    queryFn: ({ signal }) =>
      api
        .call(routes.audioGit.listRepositories, { signal, fallbackMessage: 'Failed to load' })
        .then((body) => body.data),
  });
}

export function useRepository(repoId: string) {
  return useQuery({
    queryKey: repoKeys.repo(repoId),
    queryFn: ({ signal }) =>
      api
        .call(repos.getRepo, { params: { id: repoId }, signal, fallbackMessage: 'Failed to load' })
        .then((body) => body.repo),
    retry: retryServerErrors,
  });
}

export function useRepoBranches(repoId: string) {
  return useQuery({
    queryKey: repoKeys.branches(repoId),
    queryFn: ({ signal }) =>
      api
        .call(repos.listRepoBranches, {
          params: { id: repoId },
          signal,
          fallbackMessage: 'Failed to load branches',
        })
        .then((body) => body.branches),
  });
}

/** Legacy patches, read only when the repository has no branches (the pseudo-branch). */
export function useRepoPatches(repoId: string, enabled: boolean) {
  return useQuery({
    queryKey: repoKeys.patches(repoId),
    queryFn: ({ signal }) =>
      api.call(routes.audioGit.listPatches, {
        params: { id: repoId },
        query: { limit: PSEUDO_BRANCH_PATCH_LIMIT, offset: 0 },
        signal,
        fallbackMessage: 'Failed to load commits',
      }),
    enabled,
  });
}

export function useRepoCommits(repoId: string, branch: string | null) {
  return useQuery({
    queryKey: repoKeys.commits(repoId, branch ?? ''),
    queryFn: ({ signal }) =>
      api
        .call(repos.listRepoCommits, {
          params: { id: repoId },
          query: { branch: branch ?? '', limit: COMMIT_LIMIT },
          signal,
          fallbackMessage: 'Failed to load commits',
        })
        .then((body) => body.commits),
    enabled: branch !== null,
  });
}

/** Bounces on a branch (all branches for null), polled while any is still processing. */
export function useRepoBounces(repoId: string, branch: string | null, enabled = true) {
  return useQuery({
    queryKey: repoKeys.bounces(repoId, branch),
    queryFn: ({ signal }) =>
      api
        .call(repos.listRepoBounces, {
          params: { id: repoId },
          query: { branch: branch ?? undefined },
          signal,
          fallbackMessage: 'Failed to load',
        })
        .then((body) => body.bounces),
    enabled,
    refetchInterval: (q) => (hasProcessing(q.state.data) ? PROCESSING_POLL_MS : false),
  });
}

export function useCommitBounces(repoId: string, sha: string) {
  return useQuery({
    queryKey: repoKeys.commitBounces(repoId, sha),
    queryFn: ({ signal }) =>
      api
        .call(repos.listCommitBounces, {
          params: { id: repoId, sha },
          signal,
          fallbackMessage: 'Failed to load',
        })
        .then((body) => body.bounces),
    retry: retryServerErrors,
    refetchInterval: (q) => (hasProcessing(q.state.data) ? PROCESSING_POLL_MS : false),
  });
}

/** Everything that shows repositories or bounces: the lists, this repository, the recent feed. */
export function useRefreshRepos() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: repoKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['bounces'] }),
    ]);
}

export function useCreateRepo() {
  const refresh = useRefreshRepos();
  return useMutation({
    mutationFn: (name: string) =>
      api.call(repos.createRepo, { body: { name } }).then((body) => body.repo),
    onSuccess: refresh,
  });
}

export function useUploadCover(repoId: string) {
  const refresh = useRefreshRepos();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('cover_image', file);
      return api.call(repos.uploadRepoCover, {
        params: { id: repoId },
        form,
        fallbackMessage: 'Cover upload failed',
      });
    },
    onSuccess: refresh,
  });
}
