import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type CreateBlindTestBody } from '@takes/contract';
import { api } from '../../../lib/api';

const blind = routes.blindTests;

export const blindTestKeys = {
  list: (projectId: string) => ['blind-tests', 'project', projectId] as const,
  results: (id: string) => ['blind-tests', id, 'results'] as const,
};

/** A project's blind tests (for whoever may share it), newest first. */
export function useBlindTests(projectId: string, enabled = true) {
  return useQuery({
    queryKey: blindTestKeys.list(projectId),
    queryFn: ({ signal }) => api.call(blind.listBlindTests, { params: { projectId }, signal }),
    enabled: enabled && projectId !== '',
  });
}

/** A test's results; asked again every few seconds while its audio is being prepared. */
export function useBlindTestResults(id: string) {
  return useQuery({
    queryKey: blindTestKeys.results(id),
    queryFn: ({ signal }) => api.call(blind.getBlindTestResults, { params: { id }, signal }),
    refetchInterval: (query) => (query.state.data?.test.status === 'preparing' ? 2000 : false),
    retry: false,
  });
}

export function useCreateBlindTest(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBlindTestBody) =>
      api.call(blind.createBlindTest, { params: { projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: blindTestKeys.list(projectId) }),
  });
}

export function useRevokeBlindTest(projectId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(blind.revokeBlindTest, { params: { id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: blindTestKeys.results(id) });
      await queryClient.invalidateQueries({ queryKey: blindTestKeys.list(projectId) });
    },
  });
}

/** 'Mark the winner Approved': the version's review status, recorded as from the test. */
export function useMarkBlindWinner(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) =>
      api.call(blind.markBlindTestWinner, { params: { id }, body: { version_id: versionId } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** The results page of a test. */
export function blindTestPath(projectId: string, id: string): string {
  return `/projects/${encodeURIComponent(projectId)}/blind-tests/${encodeURIComponent(id)}`;
}
