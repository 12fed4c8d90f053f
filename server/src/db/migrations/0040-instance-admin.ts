import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Running an instance (issue 48): settings an admin stores over the environment's (the sign-up
 * policy, defaults for new share links; values are JSON text), what an admin set for one person
 * (a storage quota of their own, disabled), an admin's invitations to sign up, and every admin
 * action, kept (who, what, when).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_controls')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // null: the instance's USER_STORAGE_QUOTA applies.
    .addColumn('storage_quota_bytes', t.bigint)
    .addColumn('disabled_at', t.timestamp)
    // While disabled: 1 when the person's share and collection links stop answering too.
    .addColumn('links_disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // An admin's invitation to make an account (lets the address in whatever the sign-up policy).
  await db.schema
    .createTable('signup_invitations')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .execute();
  await db.schema
    .createTable('admin_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('admin_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    // Kept as it was when acting: the record outlives the admin's account.
    .addColumn('admin_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('target_email', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  // Bytes an upload in flight will add to a person's storage, held while it streams (quotas),
  // so two uploads started together cannot both pass when only one fits; gone at expires_at.
  await db.schema
    .createTable('storage_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bytes', t.bigint, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('storage_reservations_user_idx')
    .on('storage_reservations')
    .columns(['user_id', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('admin_actions_created_idx')
    .on('admin_actions')
    .columns(['created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_reservations').execute();
  await db.schema.dropTable('admin_actions').execute();
  await db.schema.dropTable('signup_invitations').execute();
  await db.schema.dropTable('user_controls').execute();
  await db.schema.dropTable('instance_settings').execute();
}
