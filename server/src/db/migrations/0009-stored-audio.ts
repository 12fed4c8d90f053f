import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Stored-audio bookkeeping.
 * - `original_refs`: an upload in flight holds a reference to the original it is about to use
 *   (recorded before it looks whether the object exists), so a clean-up never removes it.
 * - `storage_cleanup`: keys left behind by a deletion, drained in batches by a job. The request
 *   that deletes the rows records their keys here in its own transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('original_refs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('original_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('original_refs_key_idx')
    .on('original_refs')
    .column('original_key')
    .execute();
  await db.schema
    .createIndex('original_refs_created_idx')
    .on('original_refs')
    .column('created_at')
    .execute();
  await db.schema
    .createTable('storage_cleanup')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull())
    // 'object': owned by the deleted row, removed outright; 'original': shared by content hash.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('storage_cleanup_batch_idx')
    .on('storage_cleanup')
    .columns(['batch_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_cleanup').execute();
  await db.schema.dropTable('original_refs').execute();
}
