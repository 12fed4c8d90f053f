import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Collaborators: members of a project or a repository with a role (the owner stays the row's
 * `owner_id`), invitations by email (only the token's hash is kept), and whether a public
 * project may be listed by search engines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  for (const [table, target, parent] of [
    ['project_members', 'project_id', 'projects.id'],
    ['repo_members', 'repo_id', 'repos.id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(target, 'text', (c) => c.notNull().references(parent).onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [target, 'user_id'])
      .execute();
    await db.schema.createIndex(`${table}_user_idx`).on(table).column('user_id').execute();
  }

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('repo_id', 'text', (c) => c.references('repos.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('inviter_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('accepted_at', t.timestamp)
    .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('invitations_project_idx')
    .on('invitations')
    .columns(['project_id', 'email'])
    .execute();
  await db.schema
    .createIndex('invitations_repo_idx')
    .on('invitations')
    .columns(['repo_id', 'email'])
    .execute();
  await db.schema
    .createIndex('invitations_inviter_idx')
    .on('invitations')
    .columns(['inviter_id', 'created_at'])
    .execute();

  await db.schema
    .alterTable('projects')
    .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('listed').execute();
  await db.schema.dropTable('invitations').execute();
  await db.schema.dropTable('repo_members').execute();
  await db.schema.dropTable('project_members').execute();
}
