import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DesktopDevice } from '@takes/contract';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http/errors';
import { deviceName } from './device-name';

const CODE_TTL_MS = 5 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const REFRESH_TOKEN_TTL_MS = 60 * DAY_MS;
/** However often it is refreshed, a desktop sign-in ends this long after it began. */
export const FAMILY_MAX_AGE_MS = 90 * DAY_MS;
/** Bearer use records "last used" at most this often, so the hot path stays a read. */
const LAST_USED_GRANULARITY_MS = 60 * 1000;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

type Db = Kysely<Database> | Transaction<Database>;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;
const ended = () => new HttpError(401, 'This session has ended. Sign in again.');

/**
 * Tokens for the desktop app and the CLI. A signed-in person approves a one-time code; the
 * app trades it for an access token (1 hour) and a refresh token. Each refresh hands out a
 * new pair and uses up the old refresh token; presenting a used one revokes the family.
 * A family (one device's sign-in) has a name, is listed on /settings, and ends 90 days
 * after it began whatever the rotation, or when revoked.
 */
export class DesktopTokensService {
  constructor(private readonly deps: { db: Kysely<Database>; clock: Clock }) {}

  async approve(userId: string): Promise<string> {
    const code = randomBytes(24).toString('base64url');
    await this.deps.db
      .insertInto('desktop_codes')
      .values({ code_hash: hash(code), user_id: userId, expires_at: this.at(CODE_TTL_MS) })
      .execute();
    return code;
  }

  async exchange(
    code: string,
    device: { name?: string | undefined; userAgent?: string | undefined } = {},
  ): Promise<TokenPair> {
    const now = this.at(0);
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('desktop_codes')
        .where('code_hash', '=', hash(code))
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      if (!row)
        throw new HttpError(
          400,
          'This sign-in code is invalid, used or expired. Start the sign-in again.',
        );
      const familyId = randomUUID();
      await trx
        .insertInto('desktop_families')
        .values({
          id: familyId,
          user_id: row.user_id,
          name: deviceName(device.name, device.userAgent),
          created_at: now,
          last_used_at: now,
          expires_at: this.at(REFRESH_TOKEN_TTL_MS),
        })
        .execute();
      return this.issue(trx, row.user_id, familyId, now, now);
    });
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const now = this.at(0);
    const row = await this.deps.db
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
      .where('refresh_tokens.token_hash', '=', hash(refreshToken))
      .executeTakeFirst();
    if (
      !row ||
      row.revoked_at ||
      row.family_revoked_at ||
      row.expires_at <= now ||
      this.absoluteEnd(row.family_created_at) <= now
    )
      throw ended();
    // Use it up atomically: only one of two racing refreshes wins.
    const used = await this.deps.db
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', row.token_hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) {
      // A used token came back: someone copied it. End the whole sign-in.
      await this.revokeFamily(row.family_id);
      throw ended();
    }
    return this.deps.db
      .transaction()
      .execute((trx) =>
        this.issue(trx, row.user_id, row.family_id, row.family_created_at, this.at(0)),
      );
  }

  /** The user (and token family) a bearer access token belongs to, if it is live. */
  async userForAccessToken(
    accessToken: string,
  ): Promise<{ userId: string; familyId: string; expiresAt: string } | undefined> {
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const row = await this.deps.db
      .selectFrom('access_tokens')
      .innerJoin('desktop_families', 'desktop_families.id', 'access_tokens.family_id')
      .select([
        'access_tokens.user_id',
        'access_tokens.family_id',
        'access_tokens.expires_at',
        'desktop_families.last_used_at',
      ])
      .where('access_tokens.token_hash', '=', hash(accessToken))
      .where('access_tokens.revoked_at', 'is', null)
      .where('access_tokens.expires_at', '>', nowIso)
      .where('desktop_families.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS).toISOString();
    if (row.last_used_at < stale) {
      await this.deps.db
        .updateTable('desktop_families')
        .set({ last_used_at: nowIso })
        .where('id', '=', row.family_id)
        .where('last_used_at', '<', stale)
        .execute();
    }
    return { userId: row.user_id, familyId: row.family_id, expiresAt: row.expires_at };
  }

  /** The caller's live desktop and CLI sign-ins, newest first. */
  async listDevices(userId: string): Promise<DesktopDevice[]> {
    const rows = await this.deps.db
      .selectFrom('desktop_families')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.at(0))
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
    }));
  }

  /** Ends one of the caller's sign-ins; someone else's (or an ended one) is not found. */
  async revokeDevice(userId: string, familyId: string): Promise<void> {
    const family = await this.deps.db
      .selectFrom('desktop_families')
      .select('id')
      .where('id', '=', familyId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.at(0))
      .executeTakeFirst();
    if (!family) throw notFound('Device not found');
    await this.revokeFamily(familyId);
  }

  async revokeFamily(familyId: string): Promise<void> {
    const now = this.at(0);
    await this.deps.db.transaction().execute(async (trx) => {
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
   * Ends every desktop and CLI sign-in of the user (and any approved code not yet traded),
   * except `keepFamilyId`. Answers how many live sign-ins ended.
   */
  async revokeAllForUser(userId: string, keepFamilyId?: string): Promise<number> {
    const now = this.at(0);
    return this.deps.db.transaction().execute(async (trx) => {
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

  private async issue(
    trx: Db,
    userId: string,
    familyId: string,
    familyCreatedAt: string,
    created_at: string,
  ): Promise<TokenPair> {
    const accessToken = newToken('tka');
    const refreshToken = newToken('tkr');
    const absoluteEnd = this.absoluteEnd(familyCreatedAt);
    const capped = (iso: string) => (iso < absoluteEnd ? iso : absoluteEnd);
    const refreshExpiresAt = capped(this.at(REFRESH_TOKEN_TTL_MS));
    await trx
      .insertInto('access_tokens')
      .values({
        token_hash: hash(accessToken),
        family_id: familyId,
        user_id: userId,
        expires_at: capped(this.at(ACCESS_TOKEN_TTL_S * 1000)),
        created_at,
      })
      .execute();
    await trx
      .insertInto('refresh_tokens')
      .values({
        token_hash: hash(refreshToken),
        family_id: familyId,
        user_id: userId,
        expires_at: refreshExpiresAt,
        created_at,
      })
      .execute();
    await trx
      .updateTable('desktop_families')
      .set({ last_used_at: created_at, expires_at: refreshExpiresAt })
      .where('id', '=', familyId)
      .execute();
    return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_S };
  }

  private absoluteEnd(familyCreatedAt: string): string {
    return new Date(new Date(familyCreatedAt).getTime() + FAMILY_MAX_AGE_MS).toISOString();
  }

  private at(offsetMs: number): string {
    return new Date(this.deps.clock.now().getTime() + offsetMs).toISOString();
  }
}
