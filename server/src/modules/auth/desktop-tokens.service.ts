import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';

const CODE_TTL_MS = 5 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 60 * 60;
const REFRESH_TOKEN_TTL_MS = 60 * 24 * 60 * 60 * 1000;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

/**
 * Tokens for the desktop app and the CLI. A signed-in person approves a one-time code; the
 * app trades it for an access token (1 hour) and a refresh token. Each refresh hands out a
 * new pair and uses up the old refresh token; presenting a used one revokes the family.
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

  async exchange(code: string): Promise<TokenPair> {
    const row = await this.deps.db
      .deleteFrom('desktop_codes')
      .where('code_hash', '=', hash(code))
      .where('expires_at', '>', this.at(0))
      .returning('user_id')
      .executeTakeFirst();
    if (!row)
      throw new HttpError(
        400,
        'This sign-in code is invalid, used or expired. Start the sign-in again.',
      );
    return this.issue(row.user_id, randomUUID());
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const now = this.at(0);
    const row = await this.deps.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', hash(refreshToken))
      .executeTakeFirst();
    const invalid = new HttpError(401, 'This session has ended. Sign in again.');
    if (!row || row.revoked_at || row.expires_at <= now) throw invalid;
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
      throw invalid;
    }
    return this.issue(row.user_id, row.family_id);
  }

  /** The user id a bearer access token belongs to, if it is live. */
  async userForAccessToken(
    accessToken: string,
  ): Promise<{ userId: string; expiresAt: string } | undefined> {
    const row = await this.deps.db
      .selectFrom('access_tokens')
      .select(['user_id', 'expires_at'])
      .where('token_hash', '=', hash(accessToken))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.at(0))
      .executeTakeFirst();
    return row ? { userId: row.user_id, expiresAt: row.expires_at } : undefined;
  }

  async revokeFamily(familyId: string): Promise<void> {
    const now = this.at(0);
    await this.deps.db.transaction().execute(async (trx) => {
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

  private async issue(userId: string, familyId: string): Promise<TokenPair> {
    const accessToken = newToken('tka');
    const refreshToken = newToken('tkr');
    const created_at = this.at(0);
    await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('access_tokens')
        .values({
          token_hash: hash(accessToken),
          family_id: familyId,
          user_id: userId,
          expires_at: this.at(ACCESS_TOKEN_TTL_S * 1000),
          created_at,
        })
        .execute();
      await trx
        .insertInto('refresh_tokens')
        .values({
          token_hash: hash(refreshToken),
          family_id: familyId,
          user_id: userId,
          expires_at: this.at(REFRESH_TOKEN_TTL_MS),
          created_at,
        })
        .execute();
    });
    return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_S };
  }

  private at(offsetMs: number): string {
    return new Date(this.deps.clock.now().getTime() + offsetMs).toISOString();
  }
}
