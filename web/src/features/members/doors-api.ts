import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type CreateInviteLinkBody, type MemberRole } from '@takes/contract';
import { api } from '../../lib/api';

const inviteLinks = routes.inviteLinks;
const accessRequests = routes.accessRequests;

/** A project's doors besides email invitations: its invite links and its access requests. */
export const doorKeys = {
  inviteLinks: (projectId: string) => ['invite-links', projectId] as const,
  accessRequests: (projectId: string) => ['access-requests', projectId] as const,
};

export function useInviteLinks(projectId: string) {
  return useQuery({
    queryKey: doorKeys.inviteLinks(projectId),
    queryFn: ({ signal }) =>
      api.call(inviteLinks.listInviteLinks, {
        params: { projectId },
        signal,
        fallbackMessage: 'Failed to load invite links',
      }),
  });
}

export function useCreateInviteLink(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInviteLinkBody) =>
      api.call(inviteLinks.createInviteLink, {
        params: { projectId },
        body,
        fallbackMessage: 'Failed to make the invite link',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: doorKeys.inviteLinks(projectId) }),
  });
}

export function useRevokeInviteLink(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteLinkId: string) =>
      api.call(inviteLinks.revokeInviteLink, {
        params: { inviteLinkId },
        fallbackMessage: 'Failed to revoke the invite link',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: doorKeys.inviteLinks(projectId) }),
  });
}

export function useAccessRequests(projectId: string) {
  return useQuery({
    queryKey: doorKeys.accessRequests(projectId),
    queryFn: ({ signal }) =>
      api.call(accessRequests.listAccessRequests, {
        params: { projectId },
        signal,
        fallbackMessage: 'Failed to load access requests',
      }),
  });
}

/** Granting or declining reloads the requests; granting the member list too. */
export function useDecideAccessRequest(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { requestId: string; grant: MemberRole | null }) =>
      decision.grant
        ? api.call(accessRequests.grantAccessRequest, {
            params: { requestId: decision.requestId },
            body: { role: decision.grant },
            fallbackMessage: 'Failed to grant access',
          })
        : api.call(accessRequests.declineAccessRequest, {
            params: { requestId: decision.requestId },
            fallbackMessage: 'Failed to decline the request',
          }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: doorKeys.accessRequests(projectId) }),
        queryClient.invalidateQueries({ queryKey: ['members', 'project', projectId] }),
      ]),
  });
}
