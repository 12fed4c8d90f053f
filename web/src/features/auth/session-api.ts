import { routes, type SessionResponse } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

// Every page reads the session on start. The shape check below mirrors sessionResponseSchema in
// @takes/contract by hand: a malformed answer is refused with 'Unexpected session response', and
// only the known fields are kept.

function isStringOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

export function isSessionResponse(value: unknown): value is SessionResponse {
  if (typeof value !== 'object' || value === null) return false;
  const { user, expires_at } = value as { user?: unknown; expires_at?: unknown };
  if (typeof expires_at !== 'string' || typeof user !== 'object' || user === null) return false;
  const u = user as Record<string, unknown>;
  return (
    typeof u.id === 'string' &&
    typeof u.email === 'string' &&
    isStringOrNull(u.name) &&
    isStringOrNull(u.display_name) &&
    isStringOrNull(u.avatar_url)
  );
}

/** The probe's answer when nobody is signed in: `{ user: null, expires_at: null }`. */
function isSignedOut(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { user, expires_at } = value as { user?: unknown; expires_at?: unknown };
  return user === null && expires_at === null;
}

/** The current session, or null when nobody is signed in. */
export async function fetchSession(signal?: AbortSignal): Promise<SessionResponse | null> {
  try {
    const body: unknown = await api.call(routes.auth.getSession, { signal });
    if (isSignedOut(body)) return null;
    if (!isSessionResponse(body)) throw new Error('Unexpected session response');
    const { user, expires_at } = body;
    return {
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        display_name: user.display_name,
        avatar_url: user.avatar_url,
      },
      expires_at,
    };
  } catch (error) {
    // A 401 (an older server, or a session that ends mid-request) means nobody too.
    if (error instanceof ApiError && error.status === 401) return null;
    // A success with an empty (or unreadable) body, which the client refuses, means nobody either.
    if (error instanceof ApiError && error.status >= 200 && error.status < 300) return null;
    throw error;
  }
}

export async function signOutOnServer(): Promise<void> {
  await api.call(routes.auth.signOut);
}
