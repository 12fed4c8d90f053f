import type { Kysely } from 'kysely';

/**
 * A project's share links by who made them: the member list counts each member's live links and
 * removing a member revokes theirs, without reading every link of the instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('links_project_owner_idx')
    .on('links')
    .columns(['project_id', 'owner_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('links_project_owner_idx').execute();
}
