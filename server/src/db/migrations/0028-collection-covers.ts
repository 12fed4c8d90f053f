import type { Kysely } from 'kysely';

/**
 * A cover image for a collection, as repositories have: the stored object's key and the type
 * its content was sniffed as (both null without a cover).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('collections').addColumn('cover_key', 'text').execute();
  await db.schema.alterTable('collections').addColumn('cover_type', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('collections').dropColumn('cover_type').execute();
  await db.schema.alterTable('collections').dropColumn('cover_key').execute();
}
