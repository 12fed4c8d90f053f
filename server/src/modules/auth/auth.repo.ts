import { sql, type Kysely } from 'kysely';
import { accountLive } from '../admin';
import { CompiledOnce } from '../../db/compiled-once';
import { dialectOf } from '../../db/dialect-sql';
import type { Database } from '../../db/schema';

/** The account and session rows our sign-in rules read besides better-auth's own. */
export class AuthRepo {
  constructor(private readonly db: Kysely<Database>) {}

  findUser(userId: string): Promise<{ id: string; email: string } | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** Whether the account has proven its address (emailed code or link, or a provider). */
  async emailVerified(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('email_verified')
      .where('id', '=', userId)
      .executeTakeFirst();
    // SQLite keeps 1/0, PostgreSQL a boolean.
    return Boolean(row?.email_verified);
  }

  /** Marks the address proven, while it is still the account's address; false otherwise. */
  async markEmailVerified(userId: string, email: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      // SQLite keeps booleans as 1/0.
      .set({
        email_verified: dialectOf(this.db as unknown as Kysely<unknown>) === 'postgres' ? true : 1,
      })
      .where('id', '=', userId)
      .where('email', '=', email)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The account with its profile (name and avatar); throws when there is no such user. */
  sessionUserRow(userId: string) {
    return this.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select([
        'users.id',
        'users.email',
        'users.name',
        'profiles.display_name',
        'profiles.avatar_key',
        'profiles.updated_at',
      ])
      .where('users.id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  /** A cookie session with its user, in one statement: the per-request lookup (compiled once). */
  sessionWithUser(
    token: string,
  ): Promise<{ user_id: string; email: string; expires_at: string | Date } | undefined> {
    this.sessionQuery ??= new CompiledOnce(this.db as unknown as Kysely<never>, 1, (t: string) =>
      this.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.user_id', 'users.email', 'sessions.expires_at'])
        .where('sessions.token', '=', t)
        // 'Disable' deletes the sessions; one that began while it ran opens nothing either.
        .where(accountLive(sql<string>`sessions.user_id`)),
    );
    return this.sessionQuery.executeTakeFirst(token);
  }

  private sessionQuery:
    | CompiledOnce<[string], { user_id: string; email: string; expires_at: string | Date }>
    | undefined;

  sessionByToken(token: string): Promise<{ expires_at: string } | undefined> {
    return this.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('token', '=', token)
      .executeTakeFirst();
  }

  /** Ends the user's cookie sessions except the one with `keepToken`; answers how many ended. */
  async deleteOtherSessions(userId: string, keepToken: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('token', '!=', keepToken)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
