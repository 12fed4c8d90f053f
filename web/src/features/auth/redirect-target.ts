export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

interface RememberedLocation {
  pathname: string;
  search?: string;
  hash?: string;
}

function isRememberedLocation(value: unknown): value is RememberedLocation {
  if (typeof value !== 'object' || value === null) return false;
  const { pathname } = value as { pathname?: unknown };
  // Only paths inside this app; `//host` would leave it.
  return typeof pathname === 'string' && pathname.startsWith('/') && !pathname.startsWith('//');
}

/** Where to go after signing in: the page the guard sent the visitor away from, else the dashboard. */
export function redirectTargetFrom(routerState: unknown): string {
  const from = (routerState as { from?: unknown } | null)?.from;
  if (!isRememberedLocation(from) || from.pathname === '/login') return DEFAULT_AFTER_SIGN_IN;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
