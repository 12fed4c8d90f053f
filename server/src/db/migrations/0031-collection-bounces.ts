import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-sql';

/**
 * Bounces in collections: an item may now be a repository's bounce (`bounce_id`) as well as a
 * pinned version or a followed branch; exactly one of the three is set, and a bounce appears once
 * per collection. Deleting the bounce removes its items.
 *
 * PostgreSQL changes the check in place. SQLite cannot change a table's check, so the table is
 * rebuilt: a new one is filled and renamed, and because dropping the old one runs the cascades of
 * the tables that point at it (listen receipts are deleted, link comments lose their item), those
 * rows are kept aside first and put back after, all in the migration run's one transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await db.schema
      .alterTable('collection_items')
      .addColumn('bounce_id', 'text', (c) => c.references('bounces.id').onDelete('cascade'))
      .execute();
    await db.schema
      .alterTable('collection_items')
      .dropConstraint('collection_items_one_target')
      .execute();
    await db.schema
      .alterTable('collection_items')
      .addCheckConstraint('collection_items_one_target', ONE_OF_THREE)
      .execute();
  } else {
    await rebuildOnSqlite(db, true);
  }
  await bounceIndexes(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from collection_items where bounce_id is not null`.execute(db);
  if (dialectOf(db) === 'postgres') {
    await db.schema.dropIndex('collection_items_bounce_key').execute();
    await db.schema.dropIndex('collection_items_bounce_idx').execute();
    await db.schema
      .alterTable('collection_items')
      .dropConstraint('collection_items_one_target')
      .execute();
    await db.schema.alterTable('collection_items').dropColumn('bounce_id').execute();
    await db.schema
      .alterTable('collection_items')
      .addCheckConstraint('collection_items_one_target', ONE_OF_TWO)
      .execute();
  } else {
    await rebuildOnSqlite(db, false);
  }
}

const ONE_OF_TWO = sql`(version_id is null) <> (branch_id is null)`;
const ONE_OF_THREE = sql`(case when version_id is null then 0 else 1 end) + (case when branch_id is null then 0 else 1 end) + (case when bounce_id is null then 0 else 1 end) = 1`;

async function bounceIndexes(db: Kysely<unknown>): Promise<void> {
  // One item per bounce in a collection (NULLs never clash); the cascade looks items up by bounce.
  await db.schema
    .createIndex('collection_items_bounce_key')
    .on('collection_items')
    .columns(['collection_id', 'bounce_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('collection_items_bounce_idx')
    .on('collection_items')
    .column('bounce_id')
    .execute();
}

/** The indexes of 0025 (a dropped table takes its indexes with it). */
async function itemIndexes(db: Kysely<unknown>): Promise<void> {
  for (const column of ['version_id', 'branch_id'] as const) {
    const name = column.replace('_id', '');
    await db.schema
      .createIndex(`collection_items_${name}_key`)
      .on('collection_items')
      .columns(['collection_id', column])
      .unique()
      .execute();
    await db.schema
      .createIndex(`collection_items_${name}_idx`)
      .on('collection_items')
      .column(column)
      .execute();
  }
}

/**
 * Rebuilds collection_items on SQLite with (or without: `down` has deleted the bounce items)
 * `bounce_id`, keeping every row that points at it.
 */
async function rebuildOnSqlite(db: Kysely<unknown>, withBounce: boolean): Promise<void> {
  await sql`create table collection_items_next (
    id text primary key,
    collection_id text not null references collections(id) on delete cascade,
    position integer not null,
    version_id text references versions(id) on delete cascade,
    branch_id text references branches(id) on delete cascade,
    ${withBounce ? sql`bounce_id text references bounces(id) on delete cascade,` : sql``}
    added_by text not null,
    created_at text not null,
    constraint collection_items_position_key unique (collection_id, position),
    constraint collection_items_one_target check (${withBounce ? ONE_OF_THREE : ONE_OF_TWO})
  )`.execute(db);
  await sql`insert into collection_items_next
    (id, collection_id, position, version_id, branch_id, added_by, created_at)
    select id, collection_id, position, version_id, branch_id, added_by, created_at
    from collection_items`.execute(db);
  // Kept aside: dropping the old table deletes the receipts and empties the comments' item.
  await sql`create temp table kept_receipts as select * from collection_link_receipts`.execute(db);
  await sql`create temp table kept_comment_items as
    select comment_id, item_id from collection_link_comments where item_id is not null`.execute(db);
  await sql`drop table collection_items`.execute(db);
  await sql`alter table collection_items_next rename to collection_items`.execute(db);
  await itemIndexes(db);
  await sql`insert into collection_link_receipts select * from kept_receipts`.execute(db);
  await sql`update collection_link_comments
    set item_id = (select k.item_id from kept_comment_items k
                   where k.comment_id = collection_link_comments.comment_id)
    where comment_id in (select comment_id from kept_comment_items)`.execute(db);
  await sql`drop table kept_receipts`.execute(db);
  await sql`drop table kept_comment_items`.execute(db);
}
