import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type MemberRole } from '@takes/contract';
import { api } from '../../lib/api';

const members = routes.members;

/** What the members dialog manages: a project, a repository or a collection. */
export type MembersTarget =
  | { kind: 'project'; id: string }
  | { kind: 'repository'; id: string }
  | { kind: 'collection'; id: string };

/** A target whose ownership can be handed over (a collection's cannot). */
export type TransferableTarget = Exclude<MembersTarget, { kind: 'collection' }>;

/** Whether the target's owner may hand it to an editor: projects and repositories only. */
export function canTransfer(target: MembersTarget): target is TransferableTarget {
  return target.kind !== 'collection';
}

export const memberKeys = {
  list: (target: MembersTarget) => ['members', target.kind, target.id] as const,
};

/** The queries that show the target itself (its role badge, its buttons). */
function targetKey(target: MembersTarget) {
  switch (target.kind) {
    case 'project':
      return ['projects', target.id];
    case 'repository':
      return ['repos', target.id];
    case 'collection':
      return ['collections', target.id];
  }
}

export function useMembers(target: MembersTarget) {
  return useQuery({
    queryKey: memberKeys.list(target),
    queryFn: ({ signal }) => {
      const options = { signal, fallbackMessage: 'Failed to load members' };
      switch (target.kind) {
        case 'project':
          return api.call(members.listProjectMembers, {
            params: { projectId: target.id },
            ...options,
          });
        case 'repository':
          return api.call(members.listRepoMembers, { params: { id: target.id }, ...options });
        case 'collection':
          return api.call(members.listCollectionMembers, {
            params: { id: target.id },
            ...options,
          });
      }
    },
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
  return useMembersMutation(target, (body: { email: string; role: MemberRole }) => {
    const options = { body, fallbackMessage: 'Failed to send the invitation' };
    switch (target.kind) {
      case 'project':
        return api.call(members.inviteToProject, { params: { projectId: target.id }, ...options });
      case 'repository':
        return api.call(members.inviteToRepo, { params: { id: target.id }, ...options });
      case 'collection':
        return api.call(members.inviteToCollection, { params: { id: target.id }, ...options });
    }
  });
}

export function useChangeRole(target: MembersTarget) {
  return useMembersMutation(target, ({ userId, role }: { userId: string; role: MemberRole }) => {
    const options = { body: { role }, fallbackMessage: 'Failed to change the role' };
    switch (target.kind) {
      case 'project':
        return api.call(members.changeProjectMemberRole, {
          params: { projectId: target.id, userId },
          ...options,
        });
      case 'repository':
        return api.call(members.changeRepoMemberRole, {
          params: { id: target.id, userId },
          ...options,
        });
      case 'collection':
        return api.call(members.changeCollectionMemberRole, {
          params: { id: target.id, userId },
          ...options,
        });
    }
  });
}

/**
 * Removes a member. On a project, `revokeLinks` ('Also revoke the links they made', the server's
 * default too) revokes the share links they made there; elsewhere nobody but the owner makes links.
 */
export function useRemoveMember(target: MembersTarget) {
  return useMembersMutation(target, ({ userId, revokeLinks }: RemoveMemberInput) => {
    const options = { fallbackMessage: 'Failed to remove the member' };
    switch (target.kind) {
      case 'project':
        return api.call(members.removeProjectMember, {
          params: { projectId: target.id, userId },
          query: { revoke_links: revokeLinks ? 'true' : 'false' },
          ...options,
        });
      case 'repository':
        return api.call(members.removeRepoMember, {
          params: { id: target.id, userId },
          ...options,
        });
      case 'collection':
        return api.call(members.removeCollectionMember, {
          params: { id: target.id, userId },
          ...options,
        });
    }
  });
}

export interface RemoveMemberInput {
  userId: string;
  revokeLinks: boolean;
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

/**
 * Hands ownership to an editor: the caller becomes an editor, so the target's page changes too.
 * Projects and repositories only: a collection's ownership is not transferred.
 */
export function useTransferOwnership(target: TransferableTarget) {
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
 * Leaves the project, repository or collection. Every list is marked stale without being fetched
 * again here: the page of the target is still on screen until the caller navigates away, and asking
 * for it now would only flash 'not found'.
 */
export function useLeave(target: MembersTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      const options = { fallbackMessage: 'Failed to leave' };
      switch (target.kind) {
        case 'project':
          return api.call(members.leaveProject, { params: { projectId: target.id }, ...options });
        case 'repository':
          return api.call(members.leaveRepo, { params: { id: target.id }, ...options });
        case 'collection':
          return api.call(members.leaveCollection, { params: { id: target.id }, ...options });
      }
    },
    onSuccess: () =>
      Promise.all(
        [['projects'], ['repos'], ['collections'], ['stats'], ['bounces'], ['members']].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey, refetchType: 'none' }),
        ),
      ),
  });
}
