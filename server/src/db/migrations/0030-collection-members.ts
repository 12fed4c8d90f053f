import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Members of a collection, as of a project or a repository: one row per person below the owner
 * (the collection's `owner_id`) with their role, and invitations that name a collection.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('collection_members')
    .addColumn('collection_id', 'text', (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_members_pk', ['collection_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('collection_members_user_idx')
    .on('collection_members')
    .column('user_id')
    .execute();
  await db.schema
    .alterTable('invitations')
    .addColumn('collection_id', 'text', (c) => c.references('collections.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('invitations_collection_idx')
    .on('invitations')
    .columns(['collection_id', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('invitations_collection_idx').execute();
  await db.schema.alterTable('invitations').dropColumn('collection_id').execute();
  await db.schema.dropTable('collection_members').execute();
}
