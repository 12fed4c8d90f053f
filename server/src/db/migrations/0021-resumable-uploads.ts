import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Resumable (tus) uploads in flight: who started each, when, and how many bytes arrived. The
 * bytes themselves live in the tus store (a folder, or multipart uploads in the S3 bucket); the
 * row is what access checks, the 24-hour expiry and the received-byte count read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('resumable_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // No foreign key: a deleted account's upload expires with the others (the job removes its bytes).
    .addColumn('user_id', 'text', (c) => c.notNull())
    // version | bounce
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('size', t.bigint, (c) => c.notNull())
    // receiving | finished
    .addColumn('state', 'text', (c) => c.notNull())
    // Bytes stored by every PATCH together: equal to size when nothing was sent twice.
    .addColumn('received_bytes', t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('patches', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('resumable_uploads_created_idx')
    .on('resumable_uploads')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('resumable_uploads').execute();
}
