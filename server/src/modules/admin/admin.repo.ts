import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

export type Executor = Kysely<Database> | Transaction<Database>;

/** One account as the admin page lists it, before storage figures and the admin flag. */
export interface AdminUserRow {
  id: string;
  name: string;
  email: string;
  email_verified: number | boolean;
  created_at: string;
  session_seen_at: string | null;
  token_seen_at: string | null;
  projects: number | string;
  storage_quota_bytes: number | string | null;
  disabled_at: string | null;
  links_disabled: number | null;
}

/** What the admin page reads and writes: accounts, their controls, settings and the record. */
export class AdminRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The database outside any transaction, for a write that stands alone. */
  get root(): Executor {
    return this.db;
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Every account (or one), with their controls, last use and the projects they own. */
  users(userId?: string): Promise<AdminUserRow[]> {
    let query = this.db
      .selectFrom('users')
      .leftJoin('user_controls', 'user_controls.user_id', 'users.id')
      .select((eb) => [
        'users.id',
        'users.name',
        'users.email',
        'users.email_verified',
        'users.created_at',
        'user_controls.storage_quota_bytes',
        'user_controls.disabled_at',
        'user_controls.links_disabled',
        eb
          .selectFrom('sessions')
          .select((s) => s.fn.max('sessions.updated_at').as('at'))
          .whereRef('sessions.user_id', '=', 'users.id')
          .as('session_seen_at'),
        eb
          .selectFrom('desktop_families')
          .select((s) => s.fn.max('desktop_families.last_used_at').as('at'))
          .whereRef('desktop_families.user_id', '=', 'users.id')
          .as('token_seen_at'),
        eb
          .selectFrom('projects')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('projects.owner_id', '=', 'users.id')
          .as('projects'),
      ])
      .orderBy('users.created_at')
      .orderBy('users.id');
    if (userId !== undefined) query = query.where('users.id', '=', userId);
    return query.execute() as Promise<AdminUserRow[]>;
  }

  /** Whether an admin has disabled the account (and not enabled it since). */
  async isDisabled(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_controls')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('disabled_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Writes one person's controls, making their row when they have none yet. */
  async setControls(
    trx: Executor,
    userId: string,
    values: {
      disabled_at?: string | null;
      links_disabled?: number;
      storage_quota_bytes?: number | null;
    },
    at: string,
  ): Promise<void> {
    await trx
      .insertInto('user_controls')
      .values({ user_id: userId, updated_at: at, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: at }))
      .execute();
  }

  /** Signs the person out of every browser: their cookie sessions are gone. */
  async deleteSessions(trx: Executor, userId: string): Promise<number> {
    const result = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async setting(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('instance_settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  async storeSetting(
    trx: Executor,
    key: string,
    value: string,
    adminId: string,
    at: string,
  ): Promise<void> {
    await trx
      .insertInto('instance_settings')
      .values({ key, value, updated_by: adminId, updated_at: at })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ value, updated_by: adminId, updated_at: at }),
      )
      .execute();
  }

  /** An invitation to make an account: a new one, or the same address invited again (fresh). */
  async storeInvitation(trx: Executor, email: string, adminId: string, at: string) {
    await trx
      .insertInto('signup_invitations')
      .values({ email, invited_by: adminId, created_at: at, used_at: null })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet({ invited_by: adminId, created_at: at, used_at: null }),
      )
      .execute();
  }

  async recordAction(
    trx: Executor,
    action: {
      adminId: string;
      adminEmail: string;
      action: string;
      target?: { id: string | null; email: string };
      detail?: Record<string, unknown>;
    },
    at: string,
  ): Promise<void> {
    await trx
      .insertInto('admin_actions')
      .values({
        id: randomUUID(),
        admin_id: action.adminId,
        admin_email: action.adminEmail,
        action: action.action,
        target_user_id: action.target?.id ?? null,
        target_email: action.target?.email ?? null,
        detail: action.detail ? JSON.stringify(action.detail) : null,
        created_at: at,
      })
      .execute();
  }

  /** The record, newest first, from after the cursor (its time and id). */
  actions(limit: number, after: { createdAt: string; id: string } | null) {
    let query = this.db
      .selectFrom('admin_actions')
      .select(['id', 'admin_email', 'action', 'target_email', 'detail', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    return query.execute();
  }
}
