import type { FastifyInstance, preHandlerHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import {
  DEMO_MAX_UPLOAD_BYTES,
  DEMO_MAX_UPLOADS,
  DEMO_MESSAGES,
  PROJECT_MESSAGES,
} from '@takes/contract';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';

type Executor = Kysely<Database> | Transaction<Database>;

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
};

export async function isDemoAccount(db: Executor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('demo_accounts')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Refuses the routes above to a signed-in demo account (403 with the reason). The check is
 * added after each route's own pre-handlers, so it sees the user their sign-in check found.
 * Call before the routes are registered; a listed route that never appears stops start-up.
 */
export function registerDemoRestrictions(app: FastifyInstance, db: Kysely<Database>): void {
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
        if (request.user && (await isDemoAccount(db, request.user.id)))
          throw new HttpError(403, message);
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
  const demo = userId
    ? await db
        .selectFrom('demo_accounts')
        .select('uploads_used')
        .where('user_id', '=', userId)
        .executeTakeFirst()
    : undefined;
  if (!demo) return { maxBytes, tooLarge: PROJECT_MESSAGES.tooLarge };
  if (options.needsQuota && demo.uploads_used >= DEMO_MAX_UPLOADS)
    throw new HttpError(403, DEMO_MESSAGES.uploadsUsedUp);
  return { maxBytes: Math.min(maxBytes, DEMO_MAX_UPLOAD_BYTES), tooLarge: DEMO_MESSAGES.tooLarge };
}

/**
 * Counts one upload against a demo account's quota, inside the transaction that creates the
 * version or the publish, so a refused or failed upload counts for nothing. Two at once cannot
 * both take the last one: the increment is conditional. Other accounts are not limited.
 */
export async function spendDemoUpload(db: Executor, userId: string): Promise<void> {
  const spent = await db
    .updateTable('demo_accounts')
    .set((eb) => ({ uploads_used: eb('uploads_used', '+', 1) }))
    .where('user_id', '=', userId)
    .where('uploads_used', '<', DEMO_MAX_UPLOADS)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) === 1) return;
  if (await isDemoAccount(db, userId)) throw new HttpError(403, DEMO_MESSAGES.uploadsUsedUp);
}
