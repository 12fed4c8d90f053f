import { SESSION_EXPIRES_IN_SECONDS, SESSION_UPDATE_AGE_SECONDS } from '../../auth/auth';
import { cookieValue, signedCookieValue } from '../../auth/session-cookie';

/** A signed-in caller, from a session cookie or a bearer token. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  sessionToken: string;
  /** The desktop/CLI sign-in a bearer caller uses; absent for a cookie session. */
  tokenFamilyId?: string | null;
  expiresAt: string;
}

/**
 * The session token of a request's cookies when the one-query path can judge it: null for no
 * session cookie or a bad signature (signed out), undefined for what better-auth handles itself
 * ('don't remember me').
 */
export function sessionTokenOf(
  cookies: string | null,
  sessionCookie: string,
  secret: string,
): string | null | undefined {
  const token = signedCookieValue(cookies, sessionCookie, secret);
  if (token === null || token === false) return null;
  if (cookieValue(cookies, `${sessionCookie.replace('session_token', 'dont_remember')}`))
    return undefined;
  return token;
}

/**
 * The signed-in user of a session row read with its token, or undefined when better-auth must
 * see the session (expired: it removes it; a day old: it renews it).
 */
export function liveSessionOf(
  token: string,
  row: { user_id: string; email: string; expires_at: string | Date },
  now = Date.now(),
): AuthenticatedUser | undefined {
  const expiresAt = new Date(row.expires_at).getTime();
  if (!(expiresAt > now)) return undefined;
  if (expiresAt - SESSION_EXPIRES_IN_SECONDS * 1000 + SESSION_UPDATE_AGE_SECONDS * 1000 <= now)
    return undefined;
  return {
    id: row.user_id,
    email: row.email,
    sessionToken: token,
    tokenFamilyId: null,
    expiresAt: new Date(expiresAt).toISOString(),
  };
}
