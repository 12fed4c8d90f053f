import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/** The database, or a transaction a caller has open. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** SQL for profiles: a display name and an avatar beside the account. */
export class ProfilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /** The account's email with its profile, if there is such a user. */
  find(userId: string) {
    return this.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select([
        'users.email',
        'profiles.display_name',
        'profiles.avatar_key',
        'profiles.updated_at',
      ])
      .where('users.id', '=', userId)
      .executeTakeFirst();
  }

  async setDisplayName(
    userId: string,
    displayName: string | null,
    updatedAt: string,
  ): Promise<void> {
    await this.db
      .insertInto('profiles')
      .values({
        user_id: userId,
        display_name: displayName,
        avatar_key: null,
        updated_at: updatedAt,
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ display_name: displayName, updated_at: updatedAt }),
      )
      .execute();
  }

  async avatarKey(userId: string, db: Executor = this.db): Promise<string | null | undefined> {
    const row = await db
      .selectFrom('profiles')
      .select('avatar_key')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.avatar_key;
  }

  async setAvatarKey(userId: string, key: string, updatedAt: string, db: Executor): Promise<void> {
    await db
      .insertInto('profiles')
      .values({ user_id: userId, display_name: null, avatar_key: key, updated_at: updatedAt })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ avatar_key: key, updated_at: updatedAt }),
      )
      .execute();
  }
}
