import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Two more doors into a project (issue 47). Invite links: an owner's link with a role, a number
 * of uses and an expiry, pasted in a group chat; its key is kept as share links keep theirs (the
 * owner copies it again from the Members dialog), `uses` counts joins and is only ever raised by
 * one guarded UPDATE. Access requests: a share link's signed-in listener asks to join; one open
 * request per person per project (a partial unique index says so), decided by the owner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('invite_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('link_key', 'text', (c) => c.notNull().unique())
    .addColumn('creator_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('invite_links_project_idx')
    .on('invite_links')
    .columns(['project_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('access_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('decided_at', t.timestamp)
    .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('granted_role', 'text')
    .execute();
  await sql`create unique index access_requests_open_idx on access_requests (project_id, user_id) where status = 'open'`.execute(
    db,
  );
  await db.schema
    .createIndex('access_requests_user_idx')
    .on('access_requests')
    .columns(['user_id', 'project_id', 'decided_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('access_requests').execute();
  await db.schema.dropTable('invite_links').execute();
}
