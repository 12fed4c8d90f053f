import { sql, type Kysely } from 'kysely';
import { columnTypes, dialectOf } from '../dialect-sql';

/**
 * Each rate-limit window records when it ends, so a recurring job can delete the windows that
 * are over whatever their rule's length (rules range from a minute to a day).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('rate_limits').addColumn('expires_at', t.timestamp).execute();
  // Windows counted before this migration: no rule is longer than a day.
  if (dialectOf(db) === 'postgres') {
    await sql`update rate_limits set expires_at = window_start + interval '1 day'`.execute(db);
  } else {
    await sql`update rate_limits set expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', window_start, '+1 day')`.execute(
      db,
    );
  }
  await db.schema
    .createIndex('rate_limits_expires_idx')
    .on('rate_limits')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('rate_limits_expires_idx').execute();
  await db.schema.alterTable('rate_limits').dropColumn('expires_at').execute();
}
