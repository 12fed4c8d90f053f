import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database, VersionsTable } from '../../db/schema';
import type { JobQueue } from '../../jobs/job-queue';
import type { ObjectStore } from '../../storage/object-store';
import { AudioRepo } from './audio.repo';
import { ownedAudioKeys } from './audio-view';
import { cleanupBatchJob } from './jobs';

/** How many keys the clean-up job handles per round (and the request records per insert). */
export const CLEANUP_BATCH_SIZE = 200;

/** Takes the lock that serialises everything deciding about one stored original (see AudioRepo). */
export function lockOriginal(trx: Kysely<Database>, key: string): Promise<void> {
  return new AudioRepo(trx).lockOriginal(key, trx);
}

/**
 * Every reference to a stored original, counted in one statement (one snapshot): versions,
 * bounces, bounce uploads not yet completed, and uploads in flight (`original_refs`).
 */
export function countOriginalRefs(db: Kysely<Database>, key: string): Promise<number> {
  return new AudioRepo(db).countOriginalRefs(key);
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
  const repo = new AudioRepo(db);
  return repo.transaction(async (trx) => {
    await repo.lockOriginal(key, trx);
    if ((await repo.countOriginalRefs(key, trx)) > 0) return false;
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
  const repo = new AudioRepo(db);
  await repo.transaction(async (trx) => {
    await repo.lockOriginal(key, trx);
    await repo.insertRef({ id, original_key: key, created_at: clock.now().toISOString() }, trx);
  });
  return id;
}

/** Drops an upload's reference (inside the transaction that makes the lasting one, if given). */
export async function releaseOriginalRef(db: Kysely<Database>, refId: string): Promise<void> {
  await new AudioRepo(db).deleteRef(refId);
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
    await new AudioRepo(trx).insertCleanupRows(
      rows.slice(i, i + CLEANUP_BATCH_SIZE).map((r) => ({
        id: randomUUID(),
        batch_id: batchId,
        object_key: r.key,
        kind: r.kind,
        created_at: now,
      })),
      trx,
    );
  }
  await deps.jobs.enqueue(cleanupBatchJob, { batchId }, { executor: trx });
  return batchId;
}

/**
 * Queues removal of what deleted versions stored (originals only once nothing else uses them),
 * in the deleting transaction, however many there are; a job removes them in batches.
 */
export function queueVersionsCleanup(
  trx: Kysely<Database>,
  deps: { jobs: JobQueue; clock: Clock },
  deleted: VersionsTable[],
): Promise<string | undefined> {
  return queueCleanup(trx, deps, {
    objects: deleted.flatMap(ownedAudioKeys),
    originals: deleted.map((v) => v.original_key).filter((k): k is string => !!k),
  });
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
  const repo = new AudioRepo(deps.db);
  for (;;) {
    const page = await repo.cleanupPage(batchId, CLEANUP_BATCH_SIZE);
    if (page.length === 0) return;
    for (const row of page) {
      if (row.kind === 'original')
        await deleteOriginalIfUnused(deps.db, deps.storage, row.object_key);
      else await deps.storage.delete(row.object_key);
    }
    await repo.deleteCleanupRows(page.map((r) => r.id));
  }
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
  const stale = await new AudioRepo(deps.db).staleRefs(cutoff, 1000);
  for (const ref of stale) {
    await releaseOriginalRef(deps.db, ref.id);
    await deleteOriginalIfUnused(deps.db, deps.storage, ref.original_key);
  }
  return stale.length;
}
