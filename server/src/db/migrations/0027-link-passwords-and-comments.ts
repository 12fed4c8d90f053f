import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * A password on single-version share links too (`links.password_hash`, a slow hash, as on
 * collection links); when a collection link was emailed to its recipient and first played; and which collection
 * link and item a comment came through (`collection_link_comments`: the comment stays on the
 * version when the link or its collection goes, only the association is removed with the link).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('links').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('collection_links').addColumn('emailed_at', t.timestamp).execute();
  // Set once, by the first play through the link: its owner hears of that play once.
  await db.schema
    .alterTable('collection_links')
    .addColumn('first_played_at', t.timestamp)
    .execute();
  await db.schema
    .createTable('collection_link_comments')
    .addColumn('comment_id', 'text', (c) =>
      c.primaryKey().references('comments.id').onDelete('cascade'),
    )
    .addColumn('link_id', 'text', (c) =>
      c.notNull().references('collection_links.id').onDelete('cascade'),
    )
    .addColumn('item_id', 'text', (c) => c.references('collection_items.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('collection_link_comments_link_idx')
    .on('collection_link_comments')
    .column('link_id')
    .execute();
  // The set-null from collection_items looks comments up by item.
  await db.schema
    .createIndex('collection_link_comments_item_idx')
    .on('collection_link_comments')
    .column('item_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collection_link_comments').execute();
  await db.schema.alterTable('collection_links').dropColumn('first_played_at').execute();
  await db.schema.alterTable('collection_links').dropColumn('emailed_at').execute();
  await db.schema.alterTable('links').dropColumn('password_hash').execute();
}
