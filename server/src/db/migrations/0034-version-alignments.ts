import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * How two versions of a project line up in time (comments that follow the music): one row per
 * pair, in the direction it was computed (`segments` map times of `from_version_id` onto
 * `to_version_id`; the other direction reads them swapped) and what changed between them, on
 * each one's timeline. A job fills it after processing, or
 * when someone asks for a pair; a version's rows go with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('version_alignments')
    .addColumn('from_version_id', 'text', (c) =>
      c.notNull().references('versions.id').onDelete('cascade'),
    )
    .addColumn('to_version_id', 'text', (c) =>
      c.notNull().references('versions.id').onDelete('cascade'),
    )
    // pending | ready | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('confidence', 'real')
    // JSON: [{ from_start, from_end, to_start, to_end }] in seconds, when ready.
    .addColumn('segments', 'text')
    // JSON: { threshold_db, regions } on each side's timeline (what changed), when ready.
    .addColumn('from_changes', 'text')
    .addColumn('to_changes', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('version_alignments_pk', ['from_version_id', 'to_version_id'])
    .execute();
  await db.schema
    .createIndex('version_alignments_to_idx')
    .on('version_alignments')
    .column('to_version_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('version_alignments').execute();
}
