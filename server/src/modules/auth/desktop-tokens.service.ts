import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DesktopDevice } from '@takes/contract';
import type { Clock } from '../../clock';
import { Invalid, NotFound, Unauthenticated } from '../../errors';
import { deviceName } from './device-name';
import type { DesktopTokensRepo, Executor } from './desktop-tokens.repo';

const CODE_TTL_MS = 5 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const REFRESH_TOKEN_TTL_MS = 60 * DAY_MS;
/** However often it is refreshed, a desktop sign-in ends this long after it began. */
export const FAMILY_MAX_AGE_MS = 90 * DAY_MS;
/** Bearer use records "last used" at most this often, so the hot path stays a read. */
const LAST_USED_GRANULARITY_MS = 60 * 1000;

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;
const ended = () => new Unauthenticated('This session has ended. Sign in again.');

/**
 * Tokens for the desktop app and the CLI. A signed-in person approves a one-time code; the
 * app trades it for an access token (1 hour) and a refresh token. Each refresh hands out a
 * new pair and uses up the old refresh token; presenting a used one revokes the family.
 * A family (one device's sign-in) has a name, is listed on /settings, and ends 90 days
 * after it began whatever the rotation, or when revoked.
 */
export class DesktopTokensService {
  constructor(private readonly deps: { repo: DesktopTokensRepo; clock: Clock }) {}

  async approve(userId: string): Promise<string> {
    const code = randomBytes(24).toString('base64url');
    await this.deps.repo.insertCode(hash(code), userId, this.at(CODE_TTL_MS));
    return code;
  }

  async exchange(
    code: string,
    device: { name?: string | undefined; userAgent?: string | undefined } = {},
  ): Promise<TokenPair> {
    const now = this.at(0);
    return this.deps.repo.transaction(async (trx) => {
      const userId = await this.deps.repo.takeCode(hash(code), now, trx);
      if (!userId)
        throw new Invalid(
          'This sign-in code is invalid, used or expired. Start the sign-in again.',
        );
      const familyId = randomUUID();
      await this.deps.repo.insertFamily(
        {
          id: familyId,
          user_id: userId,
          name: deviceName(device.name, device.userAgent),
          created_at: now,
          last_used_at: now,
          expires_at: this.at(REFRESH_TOKEN_TTL_MS),
        },
        trx,
      );
      return this.issue(trx, userId, familyId, now, now);
    });
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const now = this.at(0);
    const row = await this.deps.repo.findRefreshToken(hash(refreshToken));
    if (
      !row ||
      row.revoked_at ||
      row.family_revoked_at ||
      row.expires_at <= now ||
      this.absoluteEnd(row.family_created_at) <= now
    )
      throw ended();
    // Use it up atomically: only one of two racing refreshes wins.
    if (!(await this.deps.repo.useRefreshToken(row.token_hash, now))) {
      // A used token came back: someone copied it. End the whole sign-in.
      await this.revokeFamily(row.family_id);
      throw ended();
    }
    return this.deps.repo.transaction((trx) =>
      this.issue(trx, row.user_id, row.family_id, row.family_created_at, this.at(0)),
    );
  }

  /** The user (and token family) a bearer access token belongs to, if it is live. */
  async userForAccessToken(
    accessToken: string,
  ): Promise<{ userId: string; familyId: string; expiresAt: string } | undefined> {
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const row = await this.deps.repo.findLiveAccessToken(hash(accessToken), nowIso);
    if (!row) return undefined;
    const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS).toISOString();
    if (row.last_used_at < stale) {
      await this.deps.repo.touchFamily(row.family_id, nowIso, stale);
    }
    return { userId: row.user_id, familyId: row.family_id, expiresAt: row.expires_at };
  }

  /** The caller's live desktop and CLI sign-ins, newest first. */
  async listDevices(userId: string): Promise<DesktopDevice[]> {
    const rows = await this.deps.repo.listLiveFamilies(userId, this.at(0));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
    }));
  }

  /** Ends one of the caller's sign-ins; someone else's (or an ended one) is not found. */
  async revokeDevice(userId: string, familyId: string): Promise<void> {
    if (!(await this.deps.repo.isLiveFamilyOf(userId, familyId, this.at(0))))
      throw new NotFound('Device not found');
    await this.revokeFamily(familyId);
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.deps.repo.revokeFamily(familyId, this.at(0));
  }

  /**
   * Ends every desktop and CLI sign-in of the user (and any approved code not yet traded),
   * except `keepFamilyId`. Answers how many live sign-ins ended.
   */
  async revokeAllForUser(userId: string, keepFamilyId?: string): Promise<number> {
    return this.deps.repo.revokeAllForUser(userId, this.at(0), keepFamilyId);
  }

  private async issue(
    trx: Executor,
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
    await this.deps.repo.insertTokens(
      {
        access: {
          token_hash: hash(accessToken),
          family_id: familyId,
          user_id: userId,
          expires_at: capped(this.at(ACCESS_TOKEN_TTL_S * 1000)),
          created_at,
        },
        refresh: {
          token_hash: hash(refreshToken),
          family_id: familyId,
          user_id: userId,
          expires_at: refreshExpiresAt,
          created_at,
        },
      },
      trx,
    );
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
    };
  }

  private absoluteEnd(familyCreatedAt: string): string {
    return new Date(new Date(familyCreatedAt).getTime() + FAMILY_MAX_AGE_MS).toISOString();
  }

  private at(offsetMs: number): string {
    return new Date(this.deps.clock.now().getTime() + offsetMs).toISOString();
  }
}
