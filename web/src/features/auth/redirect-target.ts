import { isSitePath } from '@takes/contract';

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

/**
 * Where to go after signing in: the page the guard sent the visitor away from, else `?next=` (a
 * page outside the app's router sends it: the share entry's 'Request access'), else the
 * dashboard.
 */
export function redirectTargetFrom(routerState: unknown, next?: string | null): string {
  const from = (routerState as { from?: unknown } | null)?.from;
  if (isRememberedLocation(from) && from.pathname !== '/login')
    return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
  if (isSitePath(next) && !next.startsWith('/login')) return next;
  return DEFAULT_AFTER_SIGN_IN;
}
