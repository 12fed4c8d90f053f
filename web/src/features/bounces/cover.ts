/** The product logo, the last cover to fall back on. */
export const LOGO_URL = '/favicon.svg';

export interface CoverSources {
  itemCover?: string | null;
  repoCover?: string | null;
  avatarUrl?: string | null;
}

/**
 * A bounce card's covers to try in order: the first of item cover, repository
 * cover, the user's avatar and the logo; when an image fails, the avatar and then the logo.
 */
export function coverCandidates({ itemCover, repoCover, avatarUrl }: CoverSources): string[] {
  const first = itemCover || repoCover || avatarUrl || LOGO_URL;
  const chain = [first, avatarUrl, LOGO_URL].filter((url): url is string => Boolean(url));
  return [...new Set(chain)];
}
