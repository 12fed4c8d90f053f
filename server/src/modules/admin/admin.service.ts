import {
  linkDefaultsSchema,
  type AdminAction,
  type AdminSignups,
  type AdminStorage,
  type AdminUser,
  type LinkDefaults,
  type SignupPolicyName,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import { Invalid, NotFound, RateLimited } from '../../errors';
import type { EventBus } from '../../events/bus';
import type { Mailer } from '../../mail/mailer';
import { cursorTime } from '../activity';
import type { AdminRepo, AdminUserRow, Executor } from './admin.repo';
import { signupInvitationEmail } from './signup-invitation-email';

/** What the admin page's messages say. */
export const ADMIN_MESSAGES = {
  userNotFound: 'User not found',
  notYourself: 'You cannot disable your own account.',
  tooManyInvitations: 'Too many invitations sent. Please wait a while and try again.',
} as const;

/** What new share links start from until an admin says otherwise: as the dialogs always did. */
export const DEFAULT_LINK_DEFAULTS: LinkDefaults = {
  expires_in_days: null,
  allow_downloads: false,
};
const LINK_DEFAULTS_KEY = 'link_defaults';

/** The admin who acts: kept in the record by id and by address. */
export interface ActingAdmin {
  id: string;
  email: string;
}

/** The sign-up policy (the signups module): in force, stored over SIGNUPS, or reset to it. */
export interface SignupPolicyPort {
  current(): Promise<AdminSignups>;
  /** Writes the admin's choice in the transaction that records it. */
  storeIn(trx: Executor, policy: SignupPolicyName, adminId: string): Promise<void>;
  resetIn(trx: Executor): Promise<void>;
}

/** The storage figures (the quotas module): per person, and in all by kind. */
export interface StorageFigures {
  usedBytesByUser(): Promise<Map<string, number>>;
  totals(): Promise<AdminStorage>;
}

/**
 * The instance's admin page: its people (disable, enable, a quota of their own), the sign-up
 * policy and invitations, the defaults new share links start from, the storage, and the record
 * of every admin action, written in the transaction of the change it records.
 */
export class AdminService {
  constructor(
    private readonly deps: {
      repo: AdminRepo;
      /** An account's address by its id (the auth module's AuthRepo). */
      users: { findUser(userId: string): Promise<{ id: string; email: string } | undefined> };
      clock: Clock;
      events: EventBus;
      limiter: RateLimiter;
      mailer: Mailer;
      publicUrl: string;
      /** USER_STORAGE_QUOTA: what applies to anyone without a quota of their own. */
      instanceQuotaBytes: number | null;
      isAdminAccount: (user: { email: string; email_verified: number | boolean }) => boolean;
      /** Ends every desktop and CLI sign-in of the user. */
      revokeDesktopTokens: (userId: string) => Promise<unknown>;
      signups: SignupPolicyPort;
      storage: StorageFigures;
    },
  ) {}

  async users(): Promise<AdminUser[]> {
    const [rows, used] = await Promise.all([
      this.deps.repo.users(),
      this.deps.storage.usedBytesByUser(),
    ]);
    return rows.map((row) => this.present(row, used.get(row.id) ?? 0));
  }

  async user(userId: string): Promise<AdminUser> {
    const [row] = await this.deps.repo.users(userId);
    if (!row) throw new NotFound(ADMIN_MESSAGES.userNotFound);
    const used = await this.deps.storage.usedBytesByUser();
    return this.present(row, used.get(row.id) ?? 0);
  }

  /** Whether the account is disabled: it may not sign in by any path. */
  isDisabled(userId: string): Promise<boolean> {
    return this.deps.repo.isDisabled(userId);
  }

  /**
   * 'Disable': marked at once (no new session can start), signed out of every browser, every
   * open live-update stream ended (in every process, when the change commits), desktop and CLI
   * sign-ins revoked. With `keepLinks` false their share and collection links stop answering.
   */
  async disable(admin: ActingAdmin, userId: string, keepLinks: boolean): Promise<AdminUser> {
    if (userId === admin.id) throw new Invalid(ADMIN_MESSAGES.notYourself);
    const target = await this.target(userId);
    const at = this.now();
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.setControls(
        trx,
        userId,
        { disabled_at: at, links_disabled: keepLinks ? 0 : 1 },
        at,
      );
      const sessions = await this.deps.repo.deleteSessions(trx, userId);
      await this.record(trx, admin, 'user.disable', target, { keep_links: keepLinks, sessions });
      await this.deps.events.publish(trx, { type: 'account.disabled', userId });
    });
    await this.deps.revokeDesktopTokens(userId);
    return this.user(userId);
  }

  /** 'Enable': the account may sign in again, and its links answer again. */
  async enable(admin: ActingAdmin, userId: string): Promise<AdminUser> {
    const target = await this.target(userId);
    const at = this.now();
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.setControls(trx, userId, { disabled_at: null, links_disabled: 0 }, at);
      await this.record(trx, admin, 'user.enable', target);
    });
    return this.user(userId);
  }

  async setQuota(admin: ActingAdmin, userId: string, bytes: number | null): Promise<AdminUser> {
    const target = await this.target(userId);
    const at = this.now();
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.setControls(trx, userId, { storage_quota_bytes: bytes }, at);
      await this.record(trx, admin, 'user.quota', target, { storage_quota_bytes: bytes });
    });
    return this.user(userId);
  }

  signups(): Promise<AdminSignups> {
    return this.deps.signups.current();
  }

  // The policy and the record of the change are written in one transaction: both or neither.
  async storeSignups(admin: ActingAdmin, policy: SignupPolicyName): Promise<AdminSignups> {
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.signups.storeIn(trx, policy, admin.id);
      await this.record(trx, admin, 'signups.set', undefined, { policy });
    });
    return this.signups();
  }

  async resetSignups(admin: ActingAdmin): Promise<AdminSignups> {
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.signups.resetIn(trx);
      await this.record(trx, admin, 'signups.reset');
    });
    return this.signups();
  }

  /** Invites an address to make an account whatever the policy, and emails it the way in. */
  async invite(admin: ActingAdmin, email: string): Promise<void> {
    const rule = AUTH_RATE_RULES.mailSendUser;
    if (!(await this.deps.limiter.hit(rule, admin.id)))
      throw new RateLimited(
        ADMIN_MESSAGES.tooManyInvitations,
        await this.deps.limiter.retryAfterSeconds(rule, admin.id),
      );
    const at = this.now();
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.storeInvitation(trx, email, admin.id, at);
      await this.record(trx, admin, 'invitation.send', { id: null, email }, { email });
    });
    await this.deps.mailer.send(
      signupInvitationEmail({ to: email, publicUrl: this.deps.publicUrl }),
    );
  }

  async linkDefaults(): Promise<LinkDefaults> {
    const stored = await this.deps.repo.setting(LINK_DEFAULTS_KEY);
    if (stored === undefined) return DEFAULT_LINK_DEFAULTS;
    try {
      const parsed = linkDefaultsSchema.safeParse(JSON.parse(stored));
      return parsed.success ? parsed.data : DEFAULT_LINK_DEFAULTS;
    } catch {
      return DEFAULT_LINK_DEFAULTS;
    }
  }

  async setLinkDefaults(admin: ActingAdmin, defaults: LinkDefaults): Promise<LinkDefaults> {
    const at = this.now();
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.storeSetting(
        trx,
        LINK_DEFAULTS_KEY,
        JSON.stringify(defaults),
        admin.id,
        at,
      );
      await this.record(trx, admin, 'link_defaults.set', undefined, { ...defaults });
    });
    return this.linkDefaults();
  }

  storage(): Promise<AdminStorage> {
    return this.deps.storage.totals();
  }

  /** The record, newest first; `cursor` is the `next_cursor` of the page before. */
  async actions(
    limit: number,
    cursor: string | undefined,
  ): Promise<{ actions: AdminAction[]; next_cursor: string | null }> {
    const rows = await this.deps.repo.actions(limit + 1, decodeCursor(cursor));
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      actions: page.map((row) => ({
        id: row.id,
        admin_email: row.admin_email,
        action: row.action,
        target_email: row.target_email,
        detail: parseDetail(row.detail),
        created_at: iso(row.created_at),
      })),
      next_cursor:
        rows.length > limit && last
          ? Buffer.from(`${iso(last.created_at)}|${last.id}`, 'utf8').toString('base64url')
          : null,
    };
  }

  private async target(userId: string): Promise<{ id: string; email: string }> {
    const user = await this.deps.users.findUser(userId);
    if (!user) throw new NotFound(ADMIN_MESSAGES.userNotFound);
    return user;
  }

  private record(
    trx: Executor,
    admin: ActingAdmin,
    action: string,
    target?: { id: string | null; email: string },
    detail?: Record<string, unknown>,
  ): Promise<void> {
    return this.deps.repo.recordAction(
      trx,
      { adminId: admin.id, adminEmail: admin.email, action, target, detail },
      this.now(),
    );
  }

  private present(row: AdminUserRow, usedBytes: number): AdminUser {
    const own = row.storage_quota_bytes === null ? null : Number(row.storage_quota_bytes);
    const seen = [row.session_seen_at, row.token_seen_at]
      .filter((at): at is string => at !== null)
      .map(iso)
      .sort();
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      joined_at: iso(row.created_at),
      last_seen_at: seen.at(-1) ?? null,
      storage_used_bytes: usedBytes,
      storage_quota_bytes: own,
      effective_quota_bytes: own ?? this.deps.instanceQuotaBytes,
      projects: Number(row.projects),
      disabled_at: row.disabled_at === null ? null : iso(row.disabled_at),
      links_disabled: row.disabled_at !== null && Number(row.links_disabled) === 1,
      admin: this.deps.isAdminAccount(row),
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** A stored time (text on SQLite, parsed text or a Date on PostgreSQL) in ISO form. */
function iso(value: string | Date): string {
  return new Date(value).toISOString();
}

function decodeCursor(raw: string | undefined): { createdAt: string; id: string } | null {
  if (raw === undefined || raw === '') return null;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const id = text.slice(bar + 1);
  const createdAt = bar > 0 && id ? cursorTime(text.slice(0, bar)) : null;
  if (!createdAt) throw new Invalid('Invalid cursor');
  return { createdAt, id };
}

function parseDetail(detail: string | null): Record<string, unknown> | null {
  if (detail === null) return null;
  try {
    const parsed: unknown = JSON.parse(detail);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
