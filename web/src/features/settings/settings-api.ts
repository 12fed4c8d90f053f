import { desktopDevicesResponseSchema, routes, type DesktopDevice } from '@takes/contract';
import { api } from '../../lib/api';

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await api.call(routes.auth.changePassword, {
    body: { current_password: currentPassword, new_password: newPassword },
    fallbackMessage: 'Failed to change password',
  });
}

/** Ends every session but this one; answers how many were ended. */
export async function signOutOtherSessions(): Promise<number> {
  const body = await api.call(routes.auth.signOutOtherSessions, {
    fallbackMessage: 'Failed to sign out other sessions',
  });
  return body.revoked;
}

/** The signed-in desktop apps and `takes` CLIs, newest first. */
export async function fetchDevices(signal?: AbortSignal): Promise<DesktopDevice[]> {
  const body = await api.call(routes.desktop.listDesktopDevices, {
    signal,
    fallbackMessage: 'Failed to load your devices',
  });
  return desktopDevicesResponseSchema.parse(body).devices;
}

/** Signs one device out; it must sign in again. DELETE answers 204 with no body. */
export async function revokeDevice(id: string): Promise<void> {
  await api.call(routes.desktop.revokeDesktopDevice, {
    params: { id },
    fallbackMessage: 'Failed to revoke the device',
  });
}
