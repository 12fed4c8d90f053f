import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import type { ObjectStore } from '../../storage/object-store';

/**
 * Originals are stored once per content hash and may be shared by versions, bounces and
 * uploads in flight: one is deleted only when none of them refers to it any more.
 */
export async function deleteOriginalIfUnused(
  db: Kysely<Database>,
  storage: ObjectStore,
  key: string,
): Promise<boolean> {
  const [versions, bounces, uploads] = await Promise.all([
    db
      .selectFrom('versions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('original_key', '=', key)
      .executeTakeFirst(),
    db
      .selectFrom('bounces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('original_key', '=', key)
      .executeTakeFirst(),
    db
      .selectFrom('bounce_uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('object_key', '=', key)
      .where('status', '!=', 'completed')
      .executeTakeFirst(),
  ]);
  const users = Number(versions?.n ?? 0) + Number(bounces?.n ?? 0) + Number(uploads?.n ?? 0);
  if (users > 0) return false;
  await storage.delete(key);
  return true;
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
