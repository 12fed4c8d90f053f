import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type CreateUploadLinkBody, type RouteResult } from '@takes/contract';
import { api } from '../../lib/api';
import { queryKeys } from '../projects/projects-api';

const guests = routes.guestUploads;

export type UploadLink = RouteResult<typeof guests.createUploadLink>;
export type GuestFiles = RouteResult<typeof guests.listGuestFiles>;
export type GuestFile = GuestFiles['files'][number];
export type NewUploadLink = CreateUploadLinkBody;

export const guestTeamKeys = {
  links: (projectId: string) => ['projects', projectId, 'upload-links'] as const,
  files: (projectId: string, branchId: string) =>
    ['projects', projectId, 'guest-files', branchId] as const,
};

export function useUploadLinks(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: guestTeamKeys.links(projectId),
    queryFn: ({ signal }) => api.call(guests.listUploadLinks, { params: { projectId }, signal }),
    enabled,
  });
}

export function useCreateUploadLink(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewUploadLink) =>
      api.call(guests.createUploadLink, { params: { projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guestTeamKeys.links(projectId) }),
  });
}

export function useRevokeUploadLink(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(guests.revokeUploadLink, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guestTeamKeys.links(projectId) }),
  });
}

/** The branch's files from guests; asked again while one is being processed. */
export function useGuestFiles(projectId: string, branchId: string) {
  return useQuery({
    queryKey: guestTeamKeys.files(projectId, branchId),
    queryFn: ({ signal }) =>
      api.call(guests.listGuestFiles, {
        params: { projectId },
        query: { branch_id: branchId },
        signal,
      }),
    refetchInterval: (query) =>
      query.state.data?.files.some((f) => f.status === 'processing') ? 3000 : false,
  });
}

/** 'Add as Version N': the file becomes a version; the branch's versions are read again. */
export function useAcceptGuestFile(projectId: string, branchId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) =>
      api.call(guests.acceptGuestFile, { params: { id }, body: { message } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: guestTeamKeys.files(projectId, branchId) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.branches(projectId) });
    },
  });
}

export function useDeclineGuestFile(projectId: string, branchId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(guests.declineGuestFile, { params: { id } }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: guestTeamKeys.files(projectId, branchId) }),
  });
}
