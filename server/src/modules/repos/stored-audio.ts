import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Clock } from '../../clock';
import { dialectOf } from '../../db/dialect-sql';
import type { Database } from '../../db/schema';
import type { JobQueue } from '../../jobs/job-queue';
import type { ObjectStore } from '../../storage/object-store';

/** The job that drains one batch of `storage_cleanup` rows (its handler is in jobs/catalog.ts). */
export const cleanupBatchJob = {
  name: 'storage.cleanup-batch',
  payload: z.object({ batchId: z.string().min(1) }),
};

/** How many keys the clean-up job handles per round (and the request records per insert). */
export const CLEANUP_BATCH_SIZE = 200;

/**
 * Serialises everything that decides about one stored original: the writers that record a
 * reference to it and the clean-up that counts references before deleting it. Held until the
 * transaction ends. This is the one place the dialects differ:
 * - PostgreSQL: a transaction-level advisory lock on the key's hash (a collision only
 *   serialises two keys needlessly).
 * - SQLite: the database write lock. A deferred transaction that only reads does not take it,
 *   so a write statement that changes nothing takes it now.
 */
export async function lockOriginal(trx: Kysely<Database>, key: string): Promise<void> {
  // dialectOf reads only the adapter, so it takes any Kysely.
  if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
  } else {
    await sql`update original_refs set original_key = original_key where 0 = 1`.execute(trx);
  }
}

/**
 * Every reference to a stored original, counted in one statement (one snapshot): versions,
 * bounces, bounce uploads not yet completed, and uploads in flight (`original_refs`).
 */
export async function countOriginalRefs(db: Kysely<Database>, key: string): Promise<number> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('versions')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('original_key', '=', key)
        .as('versions'),
      eb
        .selectFrom('bounces')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('original_key', '=', key)
        .as('bounces'),
      eb
        .selectFrom('bounce_uploads')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('object_key', '=', key)
        .where('status', '!=', 'completed')
        .as('uploads'),
      eb
        .selectFrom('original_refs')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('original_key', '=', key)
        .as('pending'),
    ])
    .executeTakeFirst();
  return (
    Number(row?.versions ?? 0) +
    Number(row?.bounces ?? 0) +
    Number(row?.uploads ?? 0) +
    Number(row?.pending ?? 0)
  );
}

/**
 * Originals are stored once per content hash and may be shared by versions, bounces and
 * uploads in flight: one is deleted only when none of them refers to it any more. The only
 * way any path deletes an original. Under the key's lock, so a writer that records its
 * reference (see `recordOriginalRef`) either is counted here or finds the object gone and
 * stores it again.
 */
export async function deleteOriginalIfUnused(
  db: Kysely<Database>,
  storage: ObjectStore,
  key: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockOriginal(trx, key);
    if ((await countOriginalRefs(trx, key)) > 0) return false;
    await storage.delete(key);
    return true;
  });
}

/**
 * The writer's side: records that an upload in flight is about to use `key`, under the key's
 * lock, and commits. Only after this may the writer look whether the object exists (and put
 * it again when it does not). Returns the reference's id for `releaseOriginalRef`.
 */
export async function recordOriginalRef(
  db: Kysely<Database>,
  clock: Clock,
  key: string,
): Promise<string> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await lockOriginal(trx, key);
    await trx
      .insertInto('original_refs')
      .values({ id, original_key: key, created_at: clock.now().toISOString() })
      .execute();
  });
  return id;
}

/** Drops an upload's reference (inside the transaction that makes the lasting one, if given). */
export async function releaseOriginalRef(db: Kysely<Database>, refId: string): Promise<void> {
  await db.deleteFrom('original_refs').where('id', '=', refId).execute();
}

/**
 * Stores the original for an upload that has recorded its reference: puts it when it is
 * missing (or not the expected size). Returns whether it was put.
 */
export async function ensureOriginal(
  storage: ObjectStore,
  key: string,
  size: number,
  put: () => Promise<unknown>,
): Promise<'new' | 'existing'> {
  const existing = await storage.head(key);
  if (existing && existing.size === size) return 'existing';
  await put();
  return 'new';
}

/** What a deletion leaves behind: objects only the deleted rows owned, and shared originals. */
export interface CleanupKeys {
  objects: string[];
  originals: string[];
}

/**
 * Records the keys a deletion leaves behind, in the deleting transaction, and queues the job
 * that removes them (by batch id: the job lists the keys itself, any number of them).
 */
export async function queueCleanup(
  trx: Kysely<Database>,
  deps: { jobs: JobQueue; clock: Clock },
  keys: CleanupKeys,
): Promise<string | undefined> {
  const now = deps.clock.now().toISOString();
  const batchId = randomUUID();
  const rows = [
    ...[...new Set(keys.objects)].map((k) => ({ key: k, kind: 'object' as const })),
    ...[...new Set(keys.originals)].map((k) => ({ key: k, kind: 'original' as const })),
  ];
  if (rows.length === 0) return undefined;
  for (let i = 0; i < rows.length; i += CLEANUP_BATCH_SIZE) {
    await trx
      .insertInto('storage_cleanup')
      .values(
        rows.slice(i, i + CLEANUP_BATCH_SIZE).map((r) => ({
          id: randomUUID(),
          batch_id: batchId,
          object_key: r.key,
          kind: r.kind,
          created_at: now,
        })),
      )
      .execute();
  }
  await deps.jobs.enqueue(cleanupBatchJob, { batchId }, { executor: trx });
  return batchId;
}

/**
 * The clean-up job: removes a batch's keys a page at a time, each page's rows after its
 * objects. It can die anywhere and run again: deleting a missing object is not an error,
 * and an original is deleted only when nothing refers to it.
 */
export async function drainCleanup(
  deps: { db: Kysely<Database>; storage: ObjectStore },
  batchId: string,
): Promise<void> {
  for (;;) {
    const page = await deps.db
      .selectFrom('storage_cleanup')
      .select(['id', 'object_key', 'kind'])
      .where('batch_id', '=', batchId)
      .orderBy('id')
      .limit(CLEANUP_BATCH_SIZE)
      .execute();
    if (page.length === 0) return;
    for (const row of page) {
      if (row.kind === 'original')
        await deleteOriginalIfUnused(deps.db, deps.storage, row.object_key);
      else await deps.storage.delete(row.object_key);
    }
    await deps.db
      .deleteFrom('storage_cleanup')
      .where(
        'id',
        'in',
        page.map((r) => r.id),
      )
      .execute();
  }
}

/**
 * The clean-up of an abandoned publish: once its token has expired, an upload never
 * completed goes with its stored object (unless something else uses the same content).
 * A completed upload only loses its row. Running it again changes nothing.
 */
export async function expireUpload(
  deps: { db: Kysely<Database>; storage: ObjectStore; clock: Clock },
  uploadId: string,
): Promise<void> {
  const upload = await deps.db
    .selectFrom('bounce_uploads')
    .selectAll()
    .where('id', '=', uploadId)
    .executeTakeFirst();
  if (!upload) return;
  const now = deps.clock.now().toISOString();
  if (upload.status !== 'completed' && upload.expires_at > now) return;
  await deps.db.deleteFrom('bounce_uploads').where('id', '=', uploadId).execute();
  if (upload.status !== 'completed' && upload.object_key)
    await deleteOriginalIfUnused(deps.db, deps.storage, upload.object_key);
}

/**
 * References of uploads that never finished (their process died between recording the
 * reference and creating the version) would keep an original forever: once older than
 * `maxAgeMs` they go, and the original with them when nothing else uses it. Harmless to run
 * in several processes at once.
 */
export async function sweepStaleOriginalRefs(
  deps: { db: Kysely<Database>; storage: ObjectStore; clock: Clock },
  maxAgeMs: number,
): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - maxAgeMs).toISOString();
  const stale = await deps.db
    .selectFrom('original_refs')
    .select(['id', 'original_key'])
    .where('created_at', '<', cutoff)
    .limit(1000)
    .execute();
  for (const ref of stale) {
    await releaseOriginalRef(deps.db, ref.id);
    await deleteOriginalIfUnused(deps.db, deps.storage, ref.original_key);
  }
  return stale.length;
}
