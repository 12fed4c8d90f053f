import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * 'Download all' on a collection link: one row per zip built for a link (pending, building,
 * ready or failed), with its progress in items, what it holds (a JSON array of [item id, original
 * key] pairs, so a fresh zip of the same takes is handed out again), and the stored object once
 * ready. It lives for a day (`expires_at`); a recurring job deletes the row and its object after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('collection_link_zips')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('link_id', 'text', (c) =>
      c.notNull().references('collection_links.id').onDelete('cascade'),
    )
    // pending | building | ready | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text')
    .addColumn('size', t.bigint)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collection_link_zips_link_idx')
    .on('collection_link_zips')
    .columns(['link_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('collection_link_zips_expires_idx')
    .on('collection_link_zips')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collection_link_zips').execute();
}
