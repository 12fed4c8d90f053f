import type { SessionUser } from '@takes/contract';

type NamedUser = Pick<SessionUser, 'email' | 'name' | 'display_name'>;

function emailLocalPart(email: string): string {
  return email.split('@')[0] ?? email;
}

/** The full name, else the display name, else the part of the email before the at-sign. */
export function welcomeName(user: NamedUser): string {
  return user.name?.trim() || user.display_name?.trim() || emailLocalPart(user.email);
}

/** One or two letters for an avatar without a picture. */
export function initials(user: NamedUser): string {
  const words = welcomeName(user)
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => word?.charAt(0) ?? '')
    .join('')
    .toUpperCase();
}
