import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** The instance_settings key of the stored sign-up policy. */
const SETTING_KEY = 'signups';

/** SQL for the sign-up policy: its stored setting and the invitations that let someone in. */
export class SignupsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored setting's JSON text, or undefined when none is stored. */
  async storedValue(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('instance_settings')
      .select('value')
      .where('key', '=', SETTING_KEY)
      .executeTakeFirst();
    return row?.value;
  }

  /** Writes the setting (`on`: a transaction the change belongs to, or the database itself). */
  async store(
    value: string,
    adminId: string | null,
    now: string,
    on: Kysely<Database> = this.db,
  ): Promise<void> {
    await on
      .insertInto('instance_settings')
      .values({ key: SETTING_KEY, value, updated_by: adminId, updated_at: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ value, updated_by: adminId, updated_at: now }),
      )
      .execute();
  }

  async removeStored(on: Kysely<Database> = this.db): Promise<void> {
    await on.deleteFrom('instance_settings').where('key', '=', SETTING_KEY).execute();
  }

  /** Whether a live invitation (to a project, repository or collection) awaits this address. */
  async hasPendingInvitation(email: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('invitations')
      .select('id')
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks an admin's unused invitation used; whether there was one. */
  async useSignupInvitation(email: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('signup_invitations')
      .set({ used_at: now })
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Whether the invite link of this key still works (not revoked, not expired, uses left). */
  async inviteLinkIsLive(key: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('invite_links')
      .select(['id', 'uses', 'max_uses'])
      .where('link_key', '=', key)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined && Number(row.uses) < Number(row.max_uses);
  }
}
