import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * 'Export my data': one row per export a person asks for. The zip is built by a job, stored as
 * `exports/<id>.zip` and downloadable until `expires_at`; a recurring job deletes it after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // queued | running | ready | failed | expired
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size', t.bigint)
    .addColumn('object_key', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('ready_at', t.timestamp)
    .addColumn('expires_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('data_exports_user_idx')
    .on('data_exports')
    .columns(['user_id', 'created_at'])
    .execute();
  // One export in flight per person, even when two requests race (both dialects know partial indexes).
  await sql`create unique index data_exports_active_idx on data_exports (user_id) where state in ('queued', 'running')`.execute(
    db,
  );
  await db.schema
    .createIndex('data_exports_expires_idx')
    .on('data_exports')
    .columns(['state', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_exports').execute();
}
