import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Share links to a collection: each its own 22-character key (like version links), optionally
 * for one named recipient, with an expiry, a download switch and a password kept only as a slow
 * hash. Revoking sets `revoked_at`; deleting the collection deletes its links. Listen receipts
 * count plays and downloads per link and item, with no address, user agent or cookie.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('collection_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('collection_id', 'text', (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text')
    .addColumn('recipient_email', 'text')
    .addColumn('expires_at', t.timestamp)
    .addColumn('download_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collection_links_collection_idx')
    .on('collection_links')
    .column('collection_id')
    .execute();

  // Listen receipts: counts per link and item, and when last; nothing about the listener.
  await db.schema
    .createTable('collection_link_receipts')
    .addColumn('link_id', 'text', (c) =>
      c.notNull().references('collection_links.id').onDelete('cascade'),
    )
    .addColumn('item_id', 'text', (c) =>
      c.notNull().references('collection_items.id').onDelete('cascade'),
    )
    .addColumn('plays_started', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('plays_30s', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('plays_90', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_activity_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_link_receipts_pkey', ['link_id', 'item_id'])
    .execute();
  // The cascade from collection_items looks receipts up by item.
  await db.schema
    .createIndex('collection_link_receipts_item_idx')
    .on('collection_link_receipts')
    .column('item_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collection_link_receipts').execute();
  await db.schema.dropTable('collection_links').execute();
}
