/**
 * A path on this site, or null: what a page plays, downloads or shows never comes from another
 * origin, whatever an answer says.
 */
export function sameOriginPath(url: string | null | undefined): string | null {
  if (!url || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return null;
  try {
    return new URL(url, window.location.origin).origin === window.location.origin ? url : null;
  } catch {
    return null;
  }
}
