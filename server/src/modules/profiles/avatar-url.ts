/**
 * Where a person's avatar is fetched: `v` changes with their profile, so a new image is not
 * hidden behind a cached old one.
 */
export function avatarUrl(userId: string, updatedAt: string | null): string {
  const version = updatedAt ? new Date(updatedAt).getTime() : 0;
  return `/api/profile/avatar/${userId}?v=${version}`;
}
