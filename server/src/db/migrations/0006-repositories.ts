import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * The "audio git" model: repositories with branches and commits, legacy patches, bounces
 * (audio published onto a commit, processed like versions) and pending bounce uploads
 * (publish → PUT with a single-use token → complete).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('repos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // lower(name): one repository per name and owner, whatever the case.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('cover_key', 'text')
    .addColumn('cover_type', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('activity_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('repos_owner_name_key', ['owner_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('repo_branches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('repo_id', 'text', (c) => c.notNull().references('repos.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('head_sha', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('repo_branches_repo_name_key', ['repo_id', 'name'])
    .execute();
  await sql`create unique index repo_branches_one_default_idx on repo_branches (repo_id) where is_default = 1`.execute(
    db,
  );

  await db.schema
    .createTable('repo_commits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('repo_id', 'text', (c) => c.notNull().references('repos.id').onDelete('cascade'))
    .addColumn('branch_id', 'text', (c) =>
      c.notNull().references('repo_branches.id').onDelete('cascade'),
    )
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('parent_sha', 'text')
    .addColumn('message', 'text')
    // Orders commits made within the same millisecond.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('repo_commits_repo_sha_key', ['repo_id', 'sha'])
    .execute();
  await db.schema
    .createIndex('repo_commits_branch_idx')
    .on('repo_commits')
    .columns(['branch_id', 'seq'])
    .execute();

  await db.schema
    .createTable('repo_patches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('repo_id', 'text', (c) => c.notNull().references('repos.id').onDelete('cascade'))
    .addColumn('patch_hash', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('repo_patches_repo_hash_key', ['repo_id', 'patch_hash'])
    .execute();

  await db.schema
    .createTable('bounces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('repo_id', 'text', (c) => c.notNull().references('repos.id').onDelete('cascade'))
    .addColumn('branch_id', 'text', (c) =>
      c.notNull().references('repo_branches.id').onDelete('cascade'),
    )
    .addColumn('commit_id', 'text', (c) =>
      c.notNull().references('repo_commits.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('original_key', 'text', (c) => c.notNull())
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
    .createIndex('bounces_repo_idx')
    .on('bounces')
    .columns(['repo_id', 'created_at'])
    .execute();
  await db.schema.createIndex('bounces_commit_idx').on('bounces').column('commit_id').execute();
  await db.schema
    .createIndex('bounces_original_key_idx')
    .on('bounces')
    .column('original_key')
    .execute();

  await db.schema
    .createTable('bounce_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('repo_id', 'text', (c) => c.notNull().references('repos.id').onDelete('cascade'))
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text')
    .addColumn('commit_sha', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull())
    // pending → receiving → uploaded → completed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text')
    .addColumn('size', t.bigint)
    .addColumn('sha256', 'text')
    .addColumn('format', 'text')
    .addColumn('metadata', 'text')
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bounce_uploads_repo_idx')
    .on('bounce_uploads')
    .columns(['repo_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'bounce_uploads',
    'bounces',
    'repo_patches',
    'repo_commits',
    'repo_branches',
    'repos',
  ])
    await db.schema.dropTable(table).execute();
}
