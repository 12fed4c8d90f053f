import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toFetchHeaders, type AuthService } from '../auth';
import type { Listener } from './listen-counts';

/**
 * What every route a share link opens has in common over HTTP (project, collection and review
 * links alike): its URLs stay secret, a visitor is counted as who they are, and a file still
 * being processed is asked for again shortly.
 */

/** How long a visitor waiting for the standard rendition is asked to wait before trying again. */
export const PROCESSING_RETRY_AFTER_SECONDS = 5;

/** Share URLs are secrets: never leak them in a Referer, never let them be indexed. */
export function hideShareUrls(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    // An error after the audio started (a listener who went away) is not answered again: the
    // headers are already out.
    if (!reply.raw.headersSent) {
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-robots-tag', 'noindex, nofollow');
    }
    done(null, payload);
  });
}

/**
 * Who a link's visitor is for its play and download counts: the signed-in person (a session
 * cookie or a bearer token that still works), else nobody but the address.
 */
export async function listenerOf(
  request: FastifyRequest,
  auth: Pick<AuthService, 'currentUser'>,
): Promise<Listener> {
  const { cookie, authorization } = request.headers;
  const user = cookie || authorization ? await auth.currentUser(toFetchHeaders(request)) : null;
  return { ip: request.ip, userId: user?.id ?? null };
}
