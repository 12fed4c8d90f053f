import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Blind tests: 2–4 versions of a project played through a link with nothing but a letter to
 * tell them apart. A test has its options (one loudness-matched, equal-length rendition per
 * version, made by a job), its links (one, or one per recipient), its listeners (a browser's
 * cookie; the letters and opaque option ids it was dealt are kept), their preference votes and
 * their ABX trials (X drawn and checked on the server). A version's options, votes and trials go
 * with it; everything goes with the project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('blind_tests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    // preference | abx | both
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('trials', 'integer')
    .addColumn('reveal_after_voting', 'integer', (c) => c.notNull().defaultTo(0))
    // preparing | ready | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    // Seconds, the same for every option once ready.
    .addColumn('duration', 'real')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('blind_tests_project_idx')
    .on('blind_tests')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('blind_test_options')
    .addColumn('test_id', 'text', (c) =>
      c.notNull().references('blind_tests.id').onDelete('cascade'),
    )
    .addColumn('version_id', 'text', (c) =>
      c.notNull().references('versions.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('audio_key', 'text')
    .addColumn('size', t.bigint)
    .addColumn('gain_db', 'real')
    .addPrimaryKeyConstraint('blind_test_options_pk', ['test_id', 'version_id'])
    .execute();
  await db.schema
    .createTable('blind_test_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('test_id', 'text', (c) =>
      c.notNull().references('blind_tests.id').onDelete('cascade'),
    )
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    // The order the owner listed the recipients in.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('recipient_name', 'text')
    .addColumn('recipient_email', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('blind_test_links_test_idx')
    .on('blind_test_links')
    .column('test_id')
    .execute();
  await db.schema
    .createTable('blind_listeners')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('test_id', 'text', (c) =>
      c.notNull().references('blind_tests.id').onDelete('cascade'),
    )
    .addColumn('link_id', 'text', (c) =>
      c.notNull().references('blind_test_links.id').onDelete('cascade'),
    )
    // sha256 of the listener's cookie token: the cookie itself is never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text')
    // JSON: the letters and opaque option ids this listener was dealt (see BlindAssignment).
    .addColumn('assignment', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_activity_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('blind_listeners_test_idx')
    .on('blind_listeners')
    .columns(['test_id', 'link_id'])
    .execute();
  await db.schema
    .createTable('blind_votes')
    .addColumn('listener_id', 'text', (c) =>
      c.primaryKey().references('blind_listeners.id').onDelete('cascade'),
    )
    .addColumn('version_id', 'text', (c) =>
      c.notNull().references('versions.id').onDelete('cascade'),
    )
    .addColumn('note', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('blind_trials')
    .addColumn('listener_id', 'text', (c) =>
      c.notNull().references('blind_listeners.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('x_version_id', 'text', (c) =>
      c.notNull().references('versions.id').onDelete('cascade'),
    )
    .addColumn('x_option_id', 'text', (c) => c.notNull())
    .addColumn('correct', 'integer')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('answered_at', t.timestamp)
    .addPrimaryKeyConstraint('blind_trials_pk', ['listener_id', 'number'])
    .execute();
  // 'Mark the winner Approved': the review change says which blind test it came from.
  await db.schema
    .alterTable('version_reviews')
    .addColumn('blind_test_id', 'text', (c) => c.references('blind_tests.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('version_reviews').dropColumn('blind_test_id').execute();
  for (const table of [
    'blind_trials',
    'blind_votes',
    'blind_listeners',
    'blind_test_links',
    'blind_test_options',
    'blind_tests',
  ])
    await db.schema.dropTable(table).execute();
}
