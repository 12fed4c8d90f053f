import { routes, type Profile } from '@takes/contract';
import { api } from '../../lib/api';

export type { Profile };

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  return api.call(routes.profiles.getProfile, { signal, fallbackMessage: 'Failed to load' });
}

export function updateDisplayName(displayName: string | null): Promise<Profile> {
  return api.call(routes.profiles.updateProfile, {
    body: { display_name: displayName },
    fallbackMessage: 'Failed to save your profile',
  });
}

export function uploadAvatar(file: File): Promise<Profile> {
  const form = new FormData();
  form.append('avatar', file);
  return api.call(routes.profiles.uploadAvatar, {
    form,
    fallbackMessage: 'Avatar upload failed',
  });
}
