import { desktopDevicesResponseSchema, type DesktopDevice } from '@takes/contract';
import { ApiError, apiGet, apiPost } from '../../lib/api';

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

/** The signed-in desktop apps and `takes` CLIs, newest first. */
export async function fetchDevices(signal?: AbortSignal): Promise<DesktopDevice[]> {
  const body = await apiGet<unknown>('/api/desktop/tokens', {
    signal,
    fallbackMessage: 'Failed to load your devices',
  });
  return desktopDevicesResponseSchema.parse(body).devices;
}

/** Signs one device out; it must sign in again. DELETE answers 204 with no body. */
export async function revokeDevice(id: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`/api/desktop/tokens/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, REVOKE_FAILED, undefined);
  }
  if (response.ok) return;
  let serverMessage: string | undefined;
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') serverMessage = body.error;
  } catch {
    // No JSON body; the status is all we have.
  }
  throw new ApiError(response.status, serverMessage ?? REVOKE_FAILED, serverMessage);
}

const REVOKE_FAILED = 'Failed to revoke the device';
