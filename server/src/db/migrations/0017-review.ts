import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * The review surface: range comments (a comment may end at `end_timestamp_seconds`), a review
 * status per version with every change kept (who, when, through which link), and a link option
 * 'Allow approval' that lets the link's listeners set the status.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('comments').addColumn('end_timestamp_seconds', 'real').execute();
  await db.schema
    .alterTable('versions')
    .addColumn('review_status', 'text', (c) => c.notNull().defaultTo('in_review'))
    .execute();
  await db.schema
    .alterTable('links')
    .addColumn('allow_approval', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('version_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('version_id', 'text', (c) =>
      c.notNull().references('versions.id').onDelete('cascade'),
    )
    // in_review | changes_requested | approved
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('visitor_name', 'text')
    .addColumn('link_id', 'text', (c) => c.references('links.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('version_reviews_version_idx')
    .on('version_reviews')
    .columns(['version_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('version_reviews').execute();
  await db.schema.alterTable('links').dropColumn('allow_approval').execute();
  await db.schema.alterTable('versions').dropColumn('review_status').execute();
  await db.schema.alterTable('comments').dropColumn('end_timestamp_seconds').execute();
}
