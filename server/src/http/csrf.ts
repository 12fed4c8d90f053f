import type { FastifyInstance } from 'fastify';
import { errorBody } from '@takes/contract';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing API requests sent by other sites. Browsers mark them with an
 * Origin that is not ours (or Sec-Fetch-Site: cross-site). Bearer-token clients (desktop,
 * CLI) carry no ambient credentials, so they are not at risk and pass. Checking requests
 * without a cookie too stops another site from signing a visitor into a different account.
 */
export function registerCsrfProtection(app: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return done();
    // OAuth providers post back from their own origin; the state parameter protects these.
    if (request.url.startsWith('/api/auth/callback/')) return done();
    const hasCookie =
      typeof request.headers.cookie === 'string' && request.headers.cookie.length > 0;
    const bearer = request.headers.authorization?.startsWith('Bearer ') ?? false;
    if (bearer && !hasCookie) return done();
    const origin = request.headers.origin;
    const ownOrigin = `${request.protocol}://${request.headers.host ?? ''}`;
    const crossSite =
      origin !== undefined
        ? origin !== publicOrigin && origin !== ownOrigin
        : request.headers['sec-fetch-site'] === 'cross-site';
    if (crossSite) {
      void reply.status(403).send(errorBody('forbidden', 'Cross-site request refused'));
      return;
    }
    done();
  });
}
