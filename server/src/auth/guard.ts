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
  interface FastifyContextConfig {
    /**
     * The route's handler reads a plain cookie session itself, in the same statement as its
     * object, and calls the guard for anything else: `requireUser` lets such a request through.
     */
    sessionInHandler?: boolean;
  }
}

/** Visible ASCII: what a token in a header can hold. */
const BEARER_TOKEN = /^[\x21-\x7e]+$/;

/** The `requireUser` pre-handler; `full` makes the same check on a `sessionInHandler` route too. */
export interface AuthGuard {
  (request: FastifyRequest): Promise<void>;
  full(request: FastifyRequest): Promise<void>;
}

/** Adds `request.user` and the `requireUser` pre-handler for protected routes. */
export function registerAuthGuard(app: FastifyInstance, auth: AuthService): AuthGuard {
  app.decorateRequest('user', null);
  const check = async (request: FastifyRequest, deferToHandler: boolean) => {
    if (request.user) return;
    // The common case, a browser's session cookie alone, without building Fetch headers.
    const cookie = plainCookie(request);
    if (cookie !== undefined) {
      if (deferToHandler && request.routeOptions.config.sessionInHandler) return;
      const direct = await auth.sessionFromCookies(cookie);
      if (direct === null) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
      if (direct) {
        request.user = direct;
        return;
      }
    }
    // Audio elements cannot set headers: `?token=` carries a bearer token for them.
    const token = (request.query as { token?: unknown } | undefined)?.token;
    const headers = toFetchHeaders(request);
    // Only a token's own characters: a header cannot carry others (Headers.set throws on them).
    if (typeof token === 'string' && BEARER_TOKEN.test(token) && !headers.has('authorization'))
      headers.set('authorization', `Bearer ${token}`);
    request.user ??= await auth.currentUser(headers);
    if (!request.user) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
  };
  return Object.assign((request: FastifyRequest) => check(request, true), {
    full: (request: FastifyRequest) => check(request, false),
  });
}

/**
 * The Cookie header of a request that proves who it is by its cookies alone (no bearer token in
 * a header or in `?token=`), else undefined.
 */
export function plainCookie(request: FastifyRequest): string | undefined {
  const cookie = request.headers.cookie;
  if (!cookie || request.headers.authorization !== undefined) return undefined;
  return (request.query as { token?: unknown } | undefined)?.token === undefined
    ? cookie
    : undefined;
}

/** The signed-in user of a route guarded by `requireUser`. */
export function userOf(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
  return request.user;
}
