import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROJECTS_PAGE_SIZE, routes, type ProcessingResponse } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

const projects = routes.projects;

export const queryKeys = {
  projects: ['projects'] as const,
  projectPages: ['projects', 'pages'] as const,
  shared: ['projects', 'shared'] as const,
  publicProject: (id: string) => ['public', 'projects', id] as const,
  project: (id: string) => ['projects', id] as const,
  branches: (projectId: string) => ['projects', projectId, 'branches'] as const,
  stats: ['stats'] as const,
  processing: (versionId: string) => ['processing', versionId] as const,
};

export function useProjects() {
  return useQuery({
    queryKey: queryKeys.projects,
    queryFn: ({ signal }) => api.call(projects.listProjects, { signal }),
  });
}

/** 'Your Projects' on the dashboard: this many a page ('Load more' asks for the next). */

/** 'Your Projects' a page at a time, most recently updated first. */
export function useProjectPages() {
  return useInfiniteQuery({
    queryKey: queryKeys.projectPages,
    queryFn: ({ pageParam, signal }) =>
      api.call(projects.listProjects, {
        query: { limit: PROJECTS_PAGE_SIZE, ...(pageParam ? { after: pageParam } : {}) },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.length === PROJECTS_PAGE_SIZE ? last[last.length - 1]?.id : undefined,
  });
}

/** 'Shared with you': projects others own that the caller is a member of. */
export function useSharedProjects() {
  return useQuery({
    queryKey: queryKeys.shared,
    queryFn: ({ signal }) => api.call(projects.listSharedProjects, { signal }),
  });
}

export function useProject(projectId: string) {
  return useQuery({
    queryKey: queryKeys.project(projectId),
    queryFn: ({ signal }) => api.call(projects.getProject, { params: { projectId }, signal }),
    // A 404 is an answer ('Project not found'), not a hiccup worth retrying.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}

/** A Public project's read-only page, for anyone; 404 while it is private or missing. */
export function usePublicProject(projectId: string) {
  return useQuery({
    queryKey: queryKeys.publicProject(projectId),
    queryFn: ({ signal }) =>
      api.call(routes.publicPages.getPublicProject, {
        params: { projectId },
        signal,
        fallbackMessage: 'Failed to load project',
      }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}

export function useBranches(projectId: string) {
  return useQuery({
    queryKey: queryKeys.branches(projectId),
    queryFn: ({ signal }) => api.call(projects.listBranches, { params: { projectId }, signal }),
    enabled: projectId !== '',
  });
}

export function useStats() {
  return useQuery({
    queryKey: queryKeys.stats,
    queryFn: ({ signal }) => api.call(routes.workspace.getStats, { signal }),
  });
}

/** Invalidates everything that shows projects, branches or versions. */
export function useRefreshWorkspace() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.projects }),
      queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
    ]);
}

export interface CreateProjectInput {
  name: string;
  description?: string;
  is_private: boolean;
}

export function useCreateProject() {
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn: (input: CreateProjectInput) => api.call(projects.createProject, { body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteProject() {
  const queryClient = useQueryClient();
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn: (projectId: string) =>
      api.call(projects.deleteProject, { params: { projectId } }).then(() => projectId),
    onSuccess: async (projectId) => {
      queryClient.removeQueries({ queryKey: queryKeys.project(projectId) });
      await refresh();
    },
  });
}

export function useUpdateProject(projectId: string) {
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn: (input: { name?: string; description?: string | null; listed?: boolean }) =>
      api.call(projects.updateProject, { params: { projectId }, body: input }),
    onSuccess: refresh,
  });
}

export function useTogglePrivacy(projectId: string) {
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn: () => api.call(projects.toggleProjectPrivacy, { params: { projectId } }),
    onSuccess: refresh,
  });
}

/**
 * 'Make public' after its confirmation: switches the project to Public, then sets 'List in search
 * engines' when it differs from what the project has (unticked: the public page carries noindex).
 */
export function useMakePublic(projectId: string) {
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn: async ({ listed }: { listed: boolean }) => {
      const project = await api.call(projects.toggleProjectPrivacy, { params: { projectId } });
      if (project.listed === listed) return project;
      return api.call(projects.updateProject, { params: { projectId }, body: { listed } });
    },
    onSettled: refresh,
  });
}

/** Branch changes refresh the project's branches and the lists that count them. */
function useBranchMutation<Input, Output>(
  projectId: string,
  mutationFn: (input: Input) => Promise<Output>,
) {
  const queryClient = useQueryClient();
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.branches(projectId) }),
        refresh(),
      ]),
  });
}

export function useCreateBranch(projectId: string) {
  return useBranchMutation(projectId, (name: string) =>
    api.call(projects.createBranch, { params: { projectId }, body: { name } }),
  );
}

export function useRenameBranch(projectId: string) {
  return useBranchMutation(projectId, ({ branchId, name }: { branchId: string; name: string }) =>
    api.call(projects.renameBranch, { params: { branchId }, body: { name } }),
  );
}

export function useSetDefaultBranch(projectId: string) {
  return useBranchMutation(projectId, (branchId: string) =>
    api.call(projects.setDefaultBranch, { params: { branchId } }),
  );
}

export function useDeleteBranch(projectId: string) {
  return useBranchMutation(projectId, (branchId: string) =>
    api.call(projects.deleteBranch, { params: { branchId } }),
  );
}

export function useDeleteVersion(projectId: string) {
  return useBranchMutation(projectId, (versionId: string) =>
    api.call(routes.versions.deleteVersion, { params: { versionId } }),
  );
}

/** The processing poller: on while a version id is given, off once the version is done or failed. */
export function useProcessingStatus(versionId: string | null, intervalMs: number) {
  return useQuery({
    queryKey: queryKeys.processing(versionId ?? ''),
    queryFn: ({ signal }) =>
      api.call(routes.versions.getVersionProcessing, {
        params: { versionId: versionId ?? '' },
        signal,
        fallbackMessage: 'Failed to check processing status',
      }),
    enabled: versionId !== null,
    refetchInterval: (query) => (isProcessingDone(query.state.data) ? false : intervalMs),
  });
}

export function isProcessingDone(status: ProcessingResponse | undefined): boolean {
  if (!status) return false;
  return status.status === 'completed' || status.status === 'failed' || status.processing_complete;
}
