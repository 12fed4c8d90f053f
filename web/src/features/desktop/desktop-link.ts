import { routes } from '@takes/contract';
import { api } from '../../lib/api';

const DEFAULT_DESKTOP_SCHEME = 'takes';
// A URL scheme per RFC 3986; anything else would make a broken or dangerous link.
const SCHEME = /^[a-z][a-z0-9+.-]*$/i;

/** The desktop app's URL scheme, as the server is configured (DESKTOP_SCHEME), else `takes`. */
export async function desktopScheme(): Promise<string> {
  try {
    const { scheme } = await api.call(routes.desktop.getDesktopConfig);
    return SCHEME.test(scheme) ? scheme : DEFAULT_DESKTOP_SCHEME;
  } catch {
    return DEFAULT_DESKTOP_SCHEME;
  }
}

/** The deep link that hands a one-time sign-in code to the desktop app. */
export function desktopAuthCallbackUrl(scheme: string, code: string): string {
  return `${scheme}://auth-callback?code=${encodeURIComponent(code)}`;
}
