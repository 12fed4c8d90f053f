import { sql, type Kysely } from 'kysely';

/**
 * A comment made through a collection link keeps its link on the comment itself, so no version
 * link's listeners see it: `comments.collection_link_id` (the link; emptied when the link goes
 * with its collection, the comment staying on its version for the team) and
 * `comments.through_collection_link` (1 for good, so a comment whose link is gone stays private).
 * Comments made before are filled in from `collection_link_comments`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('collection_link_id', 'text', (c) =>
      c.references('collection_links.id').onDelete('set null'),
    )
    .execute();
  await db.schema
    .alterTable('comments')
    .addColumn('through_collection_link', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The set-null from collection_links looks comments up by link.
  await db.schema
    .createIndex('comments_collection_link_idx')
    .on('comments')
    .column('collection_link_id')
    .execute();
  await sql`update comments
    set collection_link_id = (select clc.link_id from collection_link_comments clc
                              where clc.comment_id = comments.id),
        through_collection_link = 1
    where id in (select comment_id from collection_link_comments)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('comments_collection_link_idx').execute();
  await db.schema.alterTable('comments').dropColumn('through_collection_link').execute();
  await db.schema.alterTable('comments').dropColumn('collection_link_id').execute();
}
