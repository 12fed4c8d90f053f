import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  routes,
  type CreateUploadLinkBody,
  type RouteResult,
  type UploadLink as ContractUploadLink,
} from '@takes/contract';
import { api } from '../../lib/api';
import { queryKeys } from '../projects/projects-api';
import { repoKeys } from '../repos/repos-api';

const guests = routes.guestUploads;

export type UploadLink = ContractUploadLink;
export type GuestFiles = RouteResult<typeof guests.listGuestFiles>;
export type GuestFile = GuestFiles['files'][number];
/** What the dialog asks for; the branch comes from the target. */
export type NewUploadLink = Omit<CreateUploadLinkBody, 'branch_id'>;

/**
 * Where guests' files go: a project's branch (added as its next version) or a repository's
 * branch (added as a bounce). A repository's routes name its branches by name.
 */
export type GuestTarget =
  | { kind: 'project'; projectId: string; name: string; branch: { id: string; name: string } }
  | { kind: 'repo'; repoId: string; name: string; branch: { name: string } };

const ownerKey = (target: GuestTarget) =>
  target.kind === 'project' ? queryKeys.project(target.projectId) : repoKeys.repo(target.repoId);
const branchKey = (target: GuestTarget) =>
  target.kind === 'project' ? target.branch.id : target.branch.name;

export const guestTeamKeys = {
  links: (target: GuestTarget) => [...ownerKey(target), 'upload-links'] as const,
  files: (target: GuestTarget) => [...ownerKey(target), 'guest-files', branchKey(target)] as const,
};

export function useUploadLinks(target: GuestTarget, enabled: boolean) {
  return useQuery({
    queryKey: guestTeamKeys.links(target),
    queryFn: ({ signal }) =>
      target.kind === 'project'
        ? api.call(guests.listUploadLinks, { params: { projectId: target.projectId }, signal })
        : api.call(guests.listRepoUploadLinks, { params: { id: target.repoId }, signal }),
    enabled,
  });
}

export function useCreateUploadLink(target: GuestTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewUploadLink) =>
      target.kind === 'project'
        ? api.call(guests.createUploadLink, {
            params: { projectId: target.projectId },
            body: { ...body, branch_id: target.branch.id },
          })
        : api.call(guests.createRepoUploadLink, {
            params: { id: target.repoId },
            body: { ...body, branch: target.branch.name },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guestTeamKeys.links(target) }),
  });
}

export function useRevokeUploadLink(target: GuestTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(guests.revokeUploadLink, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guestTeamKeys.links(target) }),
  });
}

/** The branch's files from guests; asked again while one is being processed. */
export function useGuestFiles(target: GuestTarget) {
  return useQuery({
    queryKey: guestTeamKeys.files(target),
    queryFn: ({ signal }) =>
      target.kind === 'project'
        ? api.call(guests.listGuestFiles, {
            params: { projectId: target.projectId },
            query: { branch_id: target.branch.id },
            signal,
          })
        : api.call(guests.listRepoGuestFiles, {
            params: { id: target.repoId },
            query: { branch: target.branch.name },
            signal,
          }),
    refetchInterval: (query) =>
      query.state.data?.files.some((f) => f.status === 'processing') ? 3000 : false,
  });
}

/**
 * 'Add as Version N' (a message) or 'Add as bounce' (a title): the file becomes a version or a
 * bounce; the branch's versions, or the repository's bounces, are read again.
 */
export function useAcceptGuestFile(target: GuestTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, words }: { id: string; words: { message?: string; title?: string } }) =>
      api.call(guests.acceptGuestFile, { params: { id }, body: words }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: guestTeamKeys.files(target) });
      await queryClient.invalidateQueries({
        queryKey: target.kind === 'project' ? queryKeys.branches(target.projectId) : repoKeys.all,
      });
    },
  });
}

export function useDeclineGuestFile(target: GuestTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(guests.declineGuestFile, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guestTeamKeys.files(target) }),
  });
}
