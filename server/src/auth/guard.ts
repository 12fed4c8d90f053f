import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '@takes/contract';
import { Unauthenticated } from '../errors';
import { toFetchHeaders } from '../modules/auth/fetch-bridge';
import type { AuthService, AuthenticatedUser } from '../modules/auth/auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser` on protected routes. */
    user: AuthenticatedUser | null;
  }
}

/** Visible ASCII: what a token in a header can hold. */
const BEARER_TOKEN = /^[\x21-\x7e]+$/;

/** Adds `request.user` and the `requireUser` pre-handler for protected routes. */
export function registerAuthGuard(
  app: FastifyInstance,
  auth: AuthService,
): (request: FastifyRequest) => Promise<void> {
  app.decorateRequest('user', null);
  return async (request) => {
    if (request.user) return;
    // Audio elements cannot set headers: `?token=` carries a bearer token for them.
    const token = (request.query as { token?: unknown } | undefined)?.token;
    // The common case, a browser's session cookie alone, without building Fetch headers.
    const cookie = request.headers.cookie;
    if (token === undefined && request.headers.authorization === undefined && cookie) {
      const direct = await auth.sessionFromCookies(cookie);
      if (direct === null) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
      if (direct) {
        request.user = direct;
        return;
      }
    }
    const headers = toFetchHeaders(request);
    // Only a token's own characters: a header cannot carry others (Headers.set throws on them).
    if (typeof token === 'string' && BEARER_TOKEN.test(token) && !headers.has('authorization'))
      headers.set('authorization', `Bearer ${token}`);
    request.user ??= await auth.currentUser(headers);
    if (!request.user) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
  };
}

/** The signed-in user of a route guarded by `requireUser`. */
export function userOf(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
  return request.user;
}
