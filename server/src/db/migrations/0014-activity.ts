import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * The collaboration loop: one activity row per meaningful event (written in the transaction of the
 * change it describes), notifications fanned out from it to each recipient, their preferences, the
 * record of each notification email sent (so a retried job never sends one twice), and share-link
 * play counts (first-party, nothing about the visitor kept).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('repo_id', 'text', (c) => c.references('repos.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    // A visitor's self-entered name (through a share link), or a copy of the user's name then.
    .addColumn('actor_name', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    // JSON: what a readable line needs (version number, timestamp, names), written at the time.
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_project_idx')
    .on('activity')
    .columns(['project_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('activity_repo_idx')
    .on('activity')
    .columns(['repo_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('activity_id', 'text', (c) =>
      c.notNull().references('activity.id').onDelete('cascade'),
    )
    .addColumn('category', 'text', (c) => c.notNull())
    // 1: to be emailed (the recipient's preference when it was made).
    .addColumn('email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', t.timestamp)
    .addColumn('emailed_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_user_idx')
    .on('notifications')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_email_idx')
    .on('notifications')
    .columns(['email', 'emailed_at', 'user_id'])
    .execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'category'])
    .execute();

  await db.schema
    .createTable('notification_emails')
    // The batch's key (recipient + window): a retried job finds it and sends nothing again.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sent_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('links')
    .addColumn('play_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('links').addColumn('last_played_at', t.timestamp).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').dropColumn('last_played_at').execute();
  await db.schema.alterTable('links').dropColumn('play_count').execute();
  await db.schema.dropTable('notification_emails').execute();
  await db.schema.dropTable('notification_preferences').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('activity').execute();
}
