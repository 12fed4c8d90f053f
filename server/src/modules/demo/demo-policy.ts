import type { FastifyInstance, preHandlerHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import {
  DEMO_MAX_UPLOAD_BYTES,
  DEMO_MAX_UPLOADS,
  DEMO_MESSAGES,
  PROJECT_MESSAGES,
} from '@takes/contract';
import { Forbidden } from '../../errors';
import { DemoRepo, type Executor } from './demo.repo';

/**
 * What a demo account may not do. Every rule about demo accounts lives in this file: the
 * routes they are refused (below) and their upload quota (the functions the upload paths call).
 */
const REFUSED_ROUTES: Readonly<Record<string, string>> = {
  'POST /api/versions/:versionId/links': DEMO_MESSAGES.shareLinks,
  'POST /api/desktop/approve': DEMO_MESSAGES.desktopTokens,
  'GET /api/debug': DEMO_MESSAGES.debug,
  'POST /api/debug/round-trip': DEMO_MESSAGES.debug,
  'POST /api/auth/change-password': DEMO_MESSAGES.credentials,
  // Invitations email any address: a throwaway account must not become a mail cannon.
  'POST /api/projects/:projectId/invitations': DEMO_MESSAGES.invitations,
  'POST /api/repos/:id/invitations': DEMO_MESSAGES.invitations,
  'POST /api/invitations/:invitationId/resend': DEMO_MESSAGES.invitations,
};

export function isDemoAccount(db: Executor, userId: string): Promise<boolean> {
  return new DemoRepo(db).isDemoAccount(userId);
}

/**
 * Refuses the routes above to a signed-in demo account (403 with the reason). The check is
 * added after each route's own pre-handlers, so it sees the user their sign-in check found.
 * Call before the routes are registered; a listed route that never appears stops start-up.
 */
export function registerDemoRestrictions(app: FastifyInstance, demo: DemoRepo): void {
  const seen = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // HEAD runs the GET handler.
      const key = `${method === 'HEAD' ? 'GET' : method} ${route.url}`;
      const message = REFUSED_ROUTES[key];
      if (!message) continue;
      seen.add(key);
      const refuseDemo: preHandlerAsyncHookHandler = async (request) => {
        if (request.user && (await demo.isDemoAccount(request.user.id)))
          throw new Forbidden(message);
      };
      const own: preHandlerHookHandler[] = route.preHandler
        ? Array.isArray(route.preHandler)
          ? route.preHandler
          : [route.preHandler]
        : [];
      route.preHandler = [...own, refuseDemo];
    }
  });
  app.addHook('onReady', (done) => {
    const missing = Object.keys(REFUSED_ROUTES).filter((key) => !seen.has(key));
    done(
      missing.length > 0
        ? new Error(`Demo restrictions name routes that do not exist: ${missing.join(', ')}`)
        : undefined,
    );
  });
}

export interface UploadLimit {
  maxBytes: number;
  /** The 413 message past maxBytes. */
  tooLarge: string;
}

/**
 * How big one upload of this user may be: 50 MB for a demo account, else `maxBytes`. With
 * `needsQuota`, a demo account that has used its uploads is refused (403) before any byte is read.
 */
export async function uploadLimitFor(
  db: Executor,
  userId: string | undefined,
  maxBytes: number,
  options: { needsQuota?: boolean } = {},
): Promise<UploadLimit> {
  const used = userId ? await new DemoRepo(db).uploadsUsed(userId) : undefined;
  if (used === undefined) return { maxBytes, tooLarge: PROJECT_MESSAGES.tooLarge };
  if (options.needsQuota && used >= DEMO_MAX_UPLOADS)
    throw new Forbidden(DEMO_MESSAGES.uploadsUsedUp);
  return { maxBytes: Math.min(maxBytes, DEMO_MAX_UPLOAD_BYTES), tooLarge: DEMO_MESSAGES.tooLarge };
}

/**
 * Counts one upload against a demo account's quota, inside the transaction that creates the
 * version or the publish, so a refused or failed upload counts for nothing. Two at once cannot
 * both take the last one: the increment is conditional. Other accounts are not limited.
 */
export async function spendDemoUpload(db: Executor, userId: string): Promise<void> {
  const demo = new DemoRepo(db);
  if (await demo.spendUpload(userId, DEMO_MAX_UPLOADS)) return;
  if (await demo.isDemoAccount(userId)) throw new Forbidden(DEMO_MESSAGES.uploadsUsedUp);
}
