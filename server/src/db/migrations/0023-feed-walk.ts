import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-sql';

/**
 * The feed walks the instance's newest versions in its order (created_at, then key) and keeps
 * those the person may read: on SQLite over the narrow search rows, on PostgreSQL over versions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite')
    await sql`create index search_versions_created_idx on search_versions (created_at, id)`.execute(
      db,
    );
  else await sql`create index versions_created_idx on versions (created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists search_versions_created_idx`.execute(db);
  await sql`drop index if exists versions_created_idx`.execute(db);
}
