import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Collections: a person's own ordered lists of takes from any project they may read. An item
 * pins one version (`version_id`) or follows a branch (`branch_id`: the newest processed
 * version of it, resolved when read); exactly one of the two is set. Deleting a version or a
 * branch removes its items (the API numbers what is left 0..n-1 in `position` order); deleting
 * the owner removes their collections. Later tables (share links, recipients, receipts) refer
 * to `collections.id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collections_owner_idx')
    .on('collections')
    .columns(['owner_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('collection_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('collection_id', 'text', (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.references('versions.id').onDelete('cascade'))
    .addColumn('branch_id', 'text', (c) => c.references('branches.id').onDelete('cascade'))
    // No foreign key: only the owner adds items today; kept for shared editing later.
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('collection_items_position_key', ['collection_id', 'position'])
    .addCheckConstraint(
      'collection_items_one_target',
      sql`(version_id is null) <> (branch_id is null)`,
    )
    .execute();
  // One item per version and per branch in a collection (NULLs never clash).
  await db.schema
    .createIndex('collection_items_version_key')
    .on('collection_items')
    .columns(['collection_id', 'version_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('collection_items_branch_key')
    .on('collection_items')
    .columns(['collection_id', 'branch_id'])
    .unique()
    .execute();
  // The cascades from versions and branches look items up by them.
  await db.schema
    .createIndex('collection_items_version_idx')
    .on('collection_items')
    .column('version_id')
    .execute();
  await db.schema
    .createIndex('collection_items_branch_idx')
    .on('collection_items')
    .column('branch_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collection_items').execute();
  await db.schema.dropTable('collections').execute();
}
