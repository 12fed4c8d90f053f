import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type MemberRole } from '@takes/contract';
import { api } from '../../lib/api';

const members = routes.members;

/** What the members dialog manages: a project or a repository. */
export type MembersTarget = { kind: 'project'; id: string } | { kind: 'repository'; id: string };

export const memberKeys = {
  list: (target: MembersTarget) => ['members', target.kind, target.id] as const,
};

/** The queries that show the target itself (its role badge, its buttons). */
function targetKey(target: MembersTarget) {
  return target.kind === 'project' ? ['projects', target.id] : ['repos', target.id];
}

export function useMembers(target: MembersTarget) {
  return useQuery({
    queryKey: memberKeys.list(target),
    queryFn: ({ signal }) =>
      target.kind === 'project'
        ? api.call(members.listProjectMembers, {
            params: { projectId: target.id },
            signal,
            fallbackMessage: 'Failed to load members',
          })
        : api.call(members.listRepoMembers, {
            params: { id: target.id },
            signal,
            fallbackMessage: 'Failed to load members',
          }),
  });
}

/** Member changes reload the dialog's list. */
function useMembersMutation<Input, Output>(
  target: MembersTarget,
  mutationFn: (input: Input) => Promise<Output>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.list(target) }),
  });
}

export function useInvite(target: MembersTarget) {
  return useMembersMutation(target, (body: { email: string; role: MemberRole }) =>
    target.kind === 'project'
      ? api.call(members.inviteToProject, {
          params: { projectId: target.id },
          body,
          fallbackMessage: 'Failed to send the invitation',
        })
      : api.call(members.inviteToRepo, {
          params: { id: target.id },
          body,
          fallbackMessage: 'Failed to send the invitation',
        }),
  );
}

export function useChangeRole(target: MembersTarget) {
  return useMembersMutation(target, ({ userId, role }: { userId: string; role: MemberRole }) =>
    target.kind === 'project'
      ? api.call(members.changeProjectMemberRole, {
          params: { projectId: target.id, userId },
          body: { role },
          fallbackMessage: 'Failed to change the role',
        })
      : api.call(members.changeRepoMemberRole, {
          params: { id: target.id, userId },
          body: { role },
          fallbackMessage: 'Failed to change the role',
        }),
  );
}

export function useRemoveMember(target: MembersTarget) {
  return useMembersMutation(target, (userId: string) =>
    target.kind === 'project'
      ? api.call(members.removeProjectMember, {
          params: { projectId: target.id, userId },
          fallbackMessage: 'Failed to remove the member',
        })
      : api.call(members.removeRepoMember, {
          params: { id: target.id, userId },
          fallbackMessage: 'Failed to remove the member',
        }),
  );
}

export function useResendInvitation(target: MembersTarget) {
  return useMembersMutation(target, (invitationId: string) =>
    api.call(members.resendInvitation, {
      params: { invitationId },
      fallbackMessage: 'Failed to resend the invitation',
    }),
  );
}

export function useRevokeInvitation(target: MembersTarget) {
  return useMembersMutation(target, (invitationId: string) =>
    api.call(members.revokeInvitation, {
      params: { invitationId },
      fallbackMessage: 'Failed to revoke the invitation',
    }),
  );
}

/** Hands ownership to an editor: the caller becomes an editor, so the target's page changes too. */
export function useTransferOwnership(target: MembersTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string): Promise<unknown> =>
      target.kind === 'project'
        ? api.call(members.transferProject, {
            params: { projectId: target.id },
            body: { user_id: userId },
            fallbackMessage: 'Failed to transfer ownership',
          })
        : api.call(members.transferRepo, {
            params: { id: target.id },
            body: { user_id: userId },
            fallbackMessage: 'Failed to transfer ownership',
          }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: memberKeys.list(target) }),
        queryClient.invalidateQueries({ queryKey: targetKey(target) }),
        queryClient.invalidateQueries({ queryKey: ['projects'] }),
        queryClient.invalidateQueries({ queryKey: ['repos'] }),
      ]),
  });
}

/**
 * Leaves the project or repository. Every list is marked stale without being fetched again here:
 * the page of the target is still on screen until the caller navigates away, and asking for it now
 * would only flash 'not found'.
 */
export function useLeave(target: MembersTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      target.kind === 'project'
        ? api.call(members.leaveProject, {
            params: { projectId: target.id },
            fallbackMessage: 'Failed to leave',
          })
        : api.call(members.leaveRepo, {
            params: { id: target.id },
            fallbackMessage: 'Failed to leave',
          }),
    onSuccess: () =>
      Promise.all(
        [['projects'], ['repos'], ['stats'], ['bounces'], ['members']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey, refetchType: 'none' }),
        ),
      ),
  });
}
