import { apiGet, apiPatch, apiPostForm } from '../../lib/api';

export interface Profile {
  email: string;
  displayName: string | null;
  avatarUrl: string | null;
}

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  return apiGet<Profile>('/api/profile', { signal, fallbackMessage: 'Failed to load' });
}

export function updateDisplayName(displayName: string | null): Promise<Profile> {
  return apiPatch<Profile>(
    '/api/profile',
    { displayName },
    {
      fallbackMessage: 'Failed to save your profile',
    },
  );
}

export function uploadAvatar(file: File): Promise<{ avatarUrl: string }> {
  const form = new FormData();
  form.append('avatar', file);
  return apiPostForm<{ avatarUrl: string }>('/api/profile/avatar', form, {
    fallbackMessage: 'Avatar upload failed',
  });
}
