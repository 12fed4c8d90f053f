import type { Kysely } from 'kysely';

/**
 * Who sees a comment through a share link: 'Team only' comments (and their replies) never reach a
 * share link, and a link can keep its visitors to their own threads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('team_only', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('links')
    .addColumn('listeners_see_each_other', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').dropColumn('listeners_see_each_other').execute();
  await db.schema.alterTable('comments').dropColumn('team_only').execute();
}
