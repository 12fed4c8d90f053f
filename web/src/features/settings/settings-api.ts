import { apiPost } from '../../lib/api';

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await apiPost(
    '/api/auth/change-password',
    { currentPassword, newPassword },
    {
      fallbackMessage: 'Failed to change password',
    },
  );
}

/** Ends every session but this one; answers how many were ended. */
export async function signOutOtherSessions(): Promise<number> {
  const body = await apiPost<{ revoked: number }>('/api/auth/sign-out-others', undefined, {
    fallbackMessage: 'Failed to sign out other sessions',
  });
  return body.revoked;
}
