const DEFAULT_DESKTOP_SCHEME = 'takes';

/** The desktop app's URL scheme: `VITE_DESKTOP_SCHEME` at build time, else `takes`. */
export function desktopScheme(): string {
  const configured = import.meta.env.VITE_DESKTOP_SCHEME;
  // A URL scheme per RFC 3986; anything else would make a broken or dangerous link.
  return typeof configured === 'string' && /^[a-z][a-z0-9+.-]*$/i.test(configured)
    ? configured
    : DEFAULT_DESKTOP_SCHEME;
}

/** The deep link that hands a one-time sign-in code to the desktop app. */
export function desktopAuthCallbackUrl(code: string): string {
  return `${desktopScheme()}://auth-callback?code=${encodeURIComponent(code)}`;
}
