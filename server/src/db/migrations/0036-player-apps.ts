import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Player apps: a person's OpenSubsonic API keys, one per device (only the key's SHA-256 is kept,
 * with its first characters to tell keys apart), and the plays those apps report (`scrobble`),
 * which the album lists 'frequent' and 'recent' are ordered by. A key and its plays go with the
 * account; a play goes with its version or bounce.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('player_apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('latest_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('last_client', 'text')
    .addColumn('revoked_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('player_apps_user_idx')
    .on('player_apps')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('player_plays')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('player_app_id', 'text', (c) => c.references('player_apps.id').onDelete('set null'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('version_id', 'text', (c) => c.references('versions.id').onDelete('cascade'))
    .addColumn('repo_id', 'text', (c) => c.references('repos.id').onDelete('cascade'))
    .addColumn('bounce_id', 'text', (c) => c.references('bounces.id').onDelete('cascade'))
    .addColumn('played_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('player_plays_user_idx')
    .on('player_plays')
    .columns(['user_id', 'played_at'])
    .execute();
  await db.schema
    .createIndex('player_plays_version_idx')
    .on('player_plays')
    .column('version_id')
    .execute();
  await db.schema
    .createIndex('player_plays_bounce_idx')
    .on('player_plays')
    .column('bounce_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('player_plays').execute();
  await db.schema.dropTable('player_apps').execute();
}
