import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Projects with branches and versions of a track. Booleans are 0/1 integers on both
 * dialects. Originals are content-addressed objects, so two versions may share one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('projects_owner_updated_idx')
    .on('projects')
    .columns(['owner_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('branches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('branches_project_name_key', ['project_id', 'name'])
    .execute();
  // At most one default branch per project, enforced by the database itself.
  await sql`create unique index branches_one_default_idx on branches (project_id) where is_default = 1`.execute(
    db,
  );

  await db.schema
    .createTable('versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('branch_id', 'text', (c) =>
      c.notNull().references('branches.id').onDelete('cascade'),
    )
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('original_key', 'text')
    .addColumn('original_name', 'text')
    .addColumn('original_size', t.bigint)
    .addColumn('original_format', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('completed'))
    .addColumn('error', 'text')
    .addColumn('metadata', 'text')
    .addColumn('waveform', 'text')
    .addColumn('loudness', 'text')
    .addColumn('renditions', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('file_url', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('versions_branch_number_key', ['branch_id', 'version_number'])
    .execute();
  await db.schema
    .createIndex('versions_project_idx')
    .on('versions')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('versions_original_key_idx')
    .on('versions')
    .column('original_key')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['versions', 'branches', 'projects'])
    await db.schema.dropTable(table).execute();
}
