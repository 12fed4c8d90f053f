import {
  DEMO_MAX_UPLOAD_BYTES,
  DEMO_MAX_UPLOADS,
  DEMO_MESSAGES,
  PROJECT_MESSAGES,
} from '@takes/contract';
import { Forbidden } from '../../errors';
import { DemoRepo, type Executor } from './demo.repo';

// What a demo account may not do, beyond the routes whose descriptors refuse it (each endpoint
// descriptor's `demo`, enforced by `route()`): its upload quota, asked by the upload paths.

export function isDemoAccount(db: Executor, userId: string): Promise<boolean> {
  return new DemoRepo(db).isDemoAccount(userId);
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
    throw new Forbidden(DEMO_MESSAGES.uploadsUsedUp, { code: 'upload_quota_exceeded' });
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
  if (await demo.isDemoAccount(userId))
    throw new Forbidden(DEMO_MESSAGES.uploadsUsedUp, { code: 'upload_quota_exceeded' });
}
