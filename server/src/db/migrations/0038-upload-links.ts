import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * File requests: an 'Upload link' of a project's branch, through which guests without an account
 * send files (`upload_links`; the key in its URL is the credential, as a share link's), and the
 * files they sent (`guest_files`), waiting for the team. A guest file is not a version: it has the
 * processing columns of versions and bounces (the same processing makes its renditions) but no
 * number, and no list of versions, count, search, feed or player app reads this table. Accepting
 * one makes a version of it (numbered then) and removes the row; declining removes the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('upload_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('branch_id', 'text', (c) =>
      c.notNull().references('branches.id').onDelete('cascade'),
    )
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('max_files', 'integer', (c) => c.notNull())
    .addColumn('max_bytes', t.bigint, (c) => c.notNull())
    // What guests sent through it so far (declined files included): the link's limits count these.
    .addColumn('files_received', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_received', t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_links_project_idx')
    .on('upload_links')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('guest_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('link_id', 'text', (c) => c.references('upload_links.id').onDelete('set null'))
    // The link's name when the file came ('Sent by {name} via {link}'), kept if the link goes.
    .addColumn('link_name', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('branch_id', 'text', (c) =>
      c.notNull().references('branches.id').onDelete('cascade'),
    )
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_email', 'text')
    .addColumn('original_key', 'text', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('original_size', t.bigint, (c) => c.notNull())
    .addColumn('original_format', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('processing'))
    .addColumn('error', 'text')
    .addColumn('metadata', 'text')
    .addColumn('waveform', 'text')
    .addColumn('loudness', 'text')
    .addColumn('renditions', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('guest_files_branch_idx')
    .on('guest_files')
    .columns(['branch_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('guest_files_project_idx')
    .on('guest_files')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('guest_files_original_idx')
    .on('guest_files')
    .column('original_key')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('guest_files').execute();
  await db.schema.dropTable('upload_links').execute();
}
