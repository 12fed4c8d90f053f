import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type {
  AccessTokensTable,
  Database,
  DesktopFamiliesTable,
  RefreshTokensTable,
} from '../../db/schema';
import { accountLive } from '../admin';

/** The database, or a transaction a caller has open. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** SQL for desktop/CLI sign-in codes, token families and their access and refresh tokens. */
export class DesktopTokensRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async insertCode(codeHash: string, userId: string, expiresAt: string): Promise<void> {
    await this.db
      .insertInto('desktop_codes')
      .values({ code_hash: codeHash, user_id: userId, expires_at: expiresAt })
      .execute();
  }

  /** Uses up a live code: the user it was approved for, or undefined. */
  async takeCode(
    codeHash: string,
    now: string,
    db: Executor = this.db,
  ): Promise<string | undefined> {
    const row = await db
      .deleteFrom('desktop_codes')
      .where('code_hash', '=', codeHash)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async insertFamily(row: Insertable<DesktopFamiliesTable>, db: Executor = this.db): Promise<void> {
    await db.insertInto('desktop_families').values(row).execute();
  }

  findRefreshToken(tokenHash: string) {
    return (
      this.db
        .selectFrom('refresh_tokens')
        .innerJoin('desktop_families', 'desktop_families.id', 'refresh_tokens.family_id')
        .select([
          'refresh_tokens.token_hash',
          'refresh_tokens.family_id',
          'refresh_tokens.user_id',
          'refresh_tokens.expires_at',
          'refresh_tokens.revoked_at',
          'desktop_families.created_at as family_created_at',
          'desktop_families.revoked_at as family_revoked_at',
        ])
        .where('refresh_tokens.token_hash', '=', tokenHash)
        // A disabled account's tokens are none, even one issued while 'Disable' was revoking them.
        .where(accountLive(sql<string>`refresh_tokens.user_id`))
        .executeTakeFirst()
    );
  }

  /** Marks a refresh token used; false when it was used already (only one racer wins). */
  async useRefreshToken(tokenHash: string, now: string): Promise<boolean> {
    const used = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  /** A live access token with its live family. */
  findLiveAccessToken(tokenHash: string, now: string) {
    return this.db
      .selectFrom('access_tokens')
      .innerJoin('desktop_families', 'desktop_families.id', 'access_tokens.family_id')
      .select([
        'access_tokens.user_id',
        'access_tokens.family_id',
        'access_tokens.expires_at',
        'desktop_families.last_used_at',
      ])
      .where('access_tokens.token_hash', '=', tokenHash)
      .where('access_tokens.revoked_at', 'is', null)
      .where('access_tokens.expires_at', '>', now)
      .where('desktop_families.revoked_at', 'is', null)
      .where(accountLive(sql<string>`access_tokens.user_id`))
      .executeTakeFirst();
  }

  /** Records use, unless a racing request already did since `stale`. */
  async touchFamily(familyId: string, now: string, stale: string): Promise<void> {
    await this.db
      .updateTable('desktop_families')
      .set({ last_used_at: now })
      .where('id', '=', familyId)
      .where('last_used_at', '<', stale)
      .execute();
  }

  listLiveFamilies(userId: string, now: string) {
    return this.db
      .selectFrom('desktop_families')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  async isLiveFamilyOf(userId: string, familyId: string, now: string): Promise<boolean> {
    const family = await this.db
      .selectFrom('desktop_families')
      .select('id')
      .where('id', '=', familyId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return family !== undefined;
  }

  /** Revokes a family with all its tokens, at once. */
  async revokeFamily(familyId: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('desktop_families')
        .set({ revoked_at: now })
        .where('id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .updateTable('access_tokens')
        .set({ revoked_at: now })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
    });
  }

  /**
   * Revokes every family and token of the user but `keepFamilyId`'s, and deletes their approved
   * codes, at once. Answers how many families were live (not yet past their end).
   */
  async revokeAllForUser(userId: string, now: string, keepFamilyId?: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('desktop_codes').where('user_id', '=', userId).execute();
      let families = trx
        .updateTable('desktop_families')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      let refresh = trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      let access = trx
        .updateTable('access_tokens')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (keepFamilyId) {
        families = families.where('id', '!=', keepFamilyId);
        refresh = refresh.where('family_id', '!=', keepFamilyId);
        access = access.where('family_id', '!=', keepFamilyId);
      }
      const ended = await families.where('expires_at', '>', now).returning('id').execute();
      // Families already past their end are revoked too, so nothing of them can come back.
      await families.execute();
      await refresh.execute();
      await access.execute();
      return ended.length;
    });
  }

  /** A new token pair for a family, which moves its last use and end along. */
  async insertTokens(
    tokens: {
      access: Insertable<AccessTokensTable>;
      refresh: Insertable<RefreshTokensTable>;
    },
    db: Executor,
  ): Promise<void> {
    await db.insertInto('access_tokens').values(tokens.access).execute();
    await db.insertInto('refresh_tokens').values(tokens.refresh).execute();
    await db
      .updateTable('desktop_families')
      .set({ last_used_at: tokens.refresh.created_at, expires_at: tokens.refresh.expires_at })
      .where('id', '=', tokens.refresh.family_id)
      .execute();
  }
}
