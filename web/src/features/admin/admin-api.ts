import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type AdminUser, type LinkDefaults, type SignupPolicyName } from '@takes/contract';
import { api } from '../../lib/api';

const admin = routes.admin;

export const adminKeys = {
  all: ['admin'] as const,
  users: ['admin', 'users'] as const,
  signups: ['admin', 'signups'] as const,
  linkDefaults: ['admin', 'link-defaults'] as const,
  storage: ['admin', 'storage'] as const,
  actions: ['admin', 'actions'] as const,
};

export function useAdminUsers() {
  return useQuery({
    queryKey: adminKeys.users,
    queryFn: ({ signal }) =>
      api.call(admin.listAdminUsers, { signal, fallbackMessage: 'Failed to load the people' }),
    // A 404 says the page is not for this person: asking again would not change it.
    retry: false,
  });
}

export function useAdminSignups() {
  return useQuery({
    queryKey: adminKeys.signups,
    queryFn: ({ signal }) => api.call(admin.getAdminSignups, { signal }),
    retry: false,
  });
}

export function useAdminLinkDefaults() {
  return useQuery({
    queryKey: adminKeys.linkDefaults,
    queryFn: ({ signal }) => api.call(admin.getAdminLinkDefaults, { signal }),
    retry: false,
  });
}

export function useAdminStorage() {
  return useQuery({
    queryKey: adminKeys.storage,
    queryFn: ({ signal }) => api.call(admin.getAdminStorage, { signal }),
    retry: false,
  });
}

export function useAdminActions() {
  return useQuery({
    queryKey: adminKeys.actions,
    queryFn: ({ signal }) => api.call(admin.listAdminActions, { signal, query: { limit: 50 } }),
    retry: false,
  });
}

/** Every admin action changes what the page shows and adds a line to 'Admin actions'. */
function useAdminMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useDisableUser() {
  return useAdminMutation(({ id, keepLinks }: { id: string; keepLinks: boolean }) =>
    api.call(admin.disableUser, {
      params: { id },
      body: { keep_links: keepLinks },
      fallbackMessage: 'Failed to disable the account',
    }),
  );
}

export function useEnableUser() {
  return useAdminMutation((id: string) =>
    api.call(admin.enableUser, { params: { id }, fallbackMessage: 'Failed to enable the account' }),
  );
}

export function useSetUserQuota() {
  return useAdminMutation(({ id, bytes }: { id: string; bytes: number | null }) =>
    api.call(admin.setUserQuota, {
      params: { id },
      body: { storage_quota_bytes: bytes },
      fallbackMessage: 'Failed to set the quota',
    }),
  );
}

export function useSetSignups() {
  return useAdminMutation((policy: SignupPolicyName | null) =>
    policy === null
      ? api.call(admin.resetAdminSignups, { fallbackMessage: 'Failed to reset the sign-up policy' })
      : api.call(admin.setAdminSignups, {
          body: { policy },
          fallbackMessage: 'Failed to save the sign-up policy',
        }),
  );
}

export function useInviteToSignUp() {
  return useAdminMutation((email: string) =>
    api.call(admin.inviteToSignUp, {
      body: { email },
      fallbackMessage: 'Failed to send the invitation',
    }),
  );
}

export function useSetLinkDefaults() {
  return useAdminMutation((body: LinkDefaults) =>
    api.call(admin.setAdminLinkDefaults, {
      body,
      fallbackMessage: 'Failed to save the link defaults',
    }),
  );
}

export type { AdminUser };
