import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Account security: one row per desktop/CLI sign-in (token family) with its device name,
 * times and an absolute end; and the per-address budget of wrong emailed codes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('desktop_families')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp, (c) => c.notNull())
    // The sliding end (the newest refresh token's), never past the absolute end.
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('desktop_families_user_idx')
    .on('desktop_families')
    .column('user_id')
    .execute();
  // Sign-ins made before this migration become families named like the desktop default;
  // their 90 days count from their first token.
  await sql`
    INSERT INTO desktop_families (id, user_id, name, created_at, last_used_at, expires_at, revoked_at)
    SELECT family_id, MIN(user_id), 'Desktop app', MIN(created_at), MAX(created_at),
           MAX(expires_at), CASE WHEN COUNT(revoked_at) > 0 THEN MAX(revoked_at) END
    FROM refresh_tokens
    GROUP BY family_id
  `.execute(db);

  await db.schema
    .createTable('magic_code_failures')
    .addColumn('email', 'text', (c) => c.primaryKey())
    // Wrong codes since window_start (a day); a resend does not touch this row.
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', t.timestamp, (c) => c.notNull())
    // How many lock-outs in a row (1 h, 6 h, 24 h), and until when the current one lasts.
    .addColumn('lockouts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', t.timestamp)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('magic_code_failures').execute();
  await db.schema.dropTable('desktop_families').execute();
}
