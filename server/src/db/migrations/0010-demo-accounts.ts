import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Demo accounts: each 'Try demo' makes its own user, marked here with the time it is deleted
 * and how many of its few uploads it has used. The row goes with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('demo_accounts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('uploads_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('demo_accounts_expires_idx')
    .on('demo_accounts')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('demo_accounts').execute();
}
