import type { Kysely, Transaction } from 'kysely';
import type { Database, UsersTable } from '../../db/schema';

/** The database, or a transaction a caller has open. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * SQL for demo accounts: making one, the marks and quota that set it apart, and removing it.
 * Built on the database, or on a caller's transaction (the upload paths spend quota in theirs).
 */
export class DemoRepo {
  constructor(private readonly db: Executor) {}

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async insertAccount(
    user: UsersTable,
    demo: { expires_at: string; created_at: string },
    db: Executor,
  ): Promise<void> {
    await db.insertInto('users').values(user).execute();
    await db
      .insertInto('demo_accounts')
      .values({ user_id: user.id, expires_at: demo.expires_at, created_at: demo.created_at })
      .execute();
  }

  /** When the session with this token ends; throws when there is none. */
  async sessionExpiresAt(token: string): Promise<string> {
    const session = await this.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    return session.expires_at;
  }

  async isDemoAccount(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('demo_accounts')
      .select('user_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A demo account's uploads so far; undefined for any other account. */
  async uploadsUsed(userId: string): Promise<number | undefined> {
    const demo = await this.db
      .selectFrom('demo_accounts')
      .select('uploads_used')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return demo?.uploads_used;
  }

  /** Counts one upload if fewer than `max` were used (conditionally: no two take the last). */
  async spendUpload(userId: string, max: number): Promise<boolean> {
    const spent = await this.db
      .updateTable('demo_accounts')
      .set((eb) => ({ uploads_used: eb('uploads_used', '+', 1) }))
      .where('user_id', '=', userId)
      .where('uploads_used', '<', max)
      .executeTakeFirst();
    return Number(spent.numUpdatedRows) === 1;
  }

  /** Up to `limit` accounts past their end, the oldest first. */
  async expired(now: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('demo_accounts')
      .select('user_id')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.user_id);
  }

  async isExpired(userId: string, now: string): Promise<boolean> {
    const own = await this.db
      .selectFrom('demo_accounts')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return own !== undefined;
  }

  async deleteSessions(userId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async projectIds(ownerId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', ownerId)
      .execute();
    return rows.map((row) => row.id);
  }

  async repoIds(ownerId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('repos')
      .select('id')
      .where('owner_id', '=', ownerId)
      .execute();
    return rows.map((row) => row.id);
  }

  /** How many projects and repositories the user still owns. */
  async ownedCount(ownerId: string, db: Executor): Promise<number> {
    const left = await db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', ownerId)
      .unionAll(db.selectFrom('repos').select('id').where('owner_id', '=', ownerId))
      .execute();
    return left.length;
  }

  /** The stored covers of the user's collections (the collections go with the user). */
  async collectionCoverKeys(userId: string, db: Executor): Promise<string[]> {
    const rows = await db
      .selectFrom('collections')
      .select('cover_key')
      .where('owner_id', '=', userId)
      .where('cover_key', 'is not', null)
      .execute();
    return rows.map((row) => row.cover_key).filter((key): key is string => key !== null);
  }

  async avatarKey(userId: string, db: Executor): Promise<string | null | undefined> {
    const profile = await db
      .selectFrom('profiles')
      .select('avatar_key')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return profile?.avatar_key;
  }

  /** Deletes the user; their sessions, profile, links, tokens and demo row go with it. */
  async deleteUser(userId: string, db: Executor): Promise<void> {
    await db.deleteFrom('users').where('id', '=', userId).execute();
  }
}
