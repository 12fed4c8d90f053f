import type { Kysely } from 'kysely';
import { COLLECTION_ZIP_STARTS_PER_HOUR, EMAILS_PER_HOUR } from '@takes/contract';
import type { Clock } from '../clock';
import type { Database } from '../db/schema';

export interface RateRule {
  /** Bucket name, e.g. 'sign-in:ip'. */
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counters in the database, so every server process shares them.
 * `hit` counts one attempt (or `amount` of them) and says whether it is still within the limit.
 */
export class RateLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async hit(rule: RateRule, subject: string, amount = 1): Promise<boolean> {
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const windowOpenedAfter = new Date(now.getTime() - rule.windowMs).toISOString();
    const key = `${rule.name}:${subject}`;
    const expiresIso = new Date(now.getTime() + rule.windowMs).toISOString();
    // One statement: a new key starts at `amount`; an expired window restarts at it; else adds it.
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: nowIso, count: amount, expires_at: expiresIso })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb
            .case()
            .when('rate_limits.window_start', '<=', windowOpenedAfter)
            .then(amount)
            .else(eb('rate_limits.count', '+', amount))
            .end(),
          window_start: eb
            .case()
            .when('rate_limits.window_start', '<=', windowOpenedAfter)
            .then(nowIso)
            .else(eb.ref('rate_limits.window_start'))
            .end(),
          expires_at: eb
            .case()
            .when('rate_limits.window_start', '<=', windowOpenedAfter)
            .then(expiresIso)
            .else(eb.fn.coalesce('rate_limits.expires_at', eb.val(expiresIso)))
            .end(),
        })),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return row.count <= rule.limit;
  }

  /**
   * Takes `amount` at once, all or nothing: within the limit they are counted (true); past it
   * they are given back (false), so a refused batch costs nothing. Two batches at once cannot
   * both fit where only one does: each sees the other's count.
   */
  async take(rule: RateRule, subject: string, amount: number): Promise<boolean> {
    if (await this.hit(rule, subject, amount)) return true;
    await this.db
      .updateTable('rate_limits')
      .set((eb) => ({ count: eb('count', '-', amount) }))
      .where('key', '=', `${rule.name}:${subject}`)
      .where('count', '>=', amount)
      .execute();
    return false;
  }

  /** Whether the subject is over the limit now, without counting an attempt. */
  async isLimited(rule: RateRule, subject: string): Promise<boolean> {
    return (await this.countNow(rule, subject)) > rule.limit;
  }

  /** Whether the subject has used the whole limit (no attempt left), without counting one. */
  async isSpent(rule: RateRule, subject: string): Promise<boolean> {
    return (await this.countNow(rule, subject)) >= rule.limit;
  }

  private async countNow(rule: RateRule, subject: string): Promise<number> {
    const windowOpenedAfter = new Date(this.clock.now().getTime() - rule.windowMs).toISOString();
    const row = await this.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', `${rule.name}:${subject}`)
      .where('window_start', '>', windowOpenedAfter)
      .executeTakeFirst();
    return row?.count ?? 0;
  }

  /**
   * Seconds until the subject's current window ends and its count starts again (at least 1): the
   * Retry-After of a refusal.
   */
  async retryAfterSeconds(rule: RateRule, subject: string): Promise<number> {
    const now = this.clock.now().getTime();
    const row = await this.db
      .selectFrom('rate_limits')
      .select('window_start')
      .where('key', '=', `${rule.name}:${subject}`)
      .executeTakeFirst();
    const endsAt = row ? new Date(row.window_start).getTime() + rule.windowMs : now;
    return Math.max(1, Math.ceil((endsAt - now) / 1000));
  }

  /**
   * Deletes the windows that are over (each row knows when its rule's window ends), so the table
   * holds only live counters. Rows from before expiry times were recorded go a day after they
   * opened. Returns how many rows went.
   */
  async prune(): Promise<number> {
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const dayAgo = new Date(now.getTime() - 24 * 60 * MINUTE).toISOString();
    const result = await this.db
      .deleteFrom('rate_limits')
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', nowIso),
          eb.and([eb('expires_at', 'is', null), eb('window_start', '<=', dayAgo)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

const MINUTE = 60_000;

/** The limits on sign-in flows, per IP address and per email. */
export const AUTH_RATE_RULES = {
  signInIp: { name: 'sign-in:ip', limit: 20, windowMs: 10 * MINUTE },
  signInEmail: { name: 'sign-in:email', limit: 10, windowMs: 10 * MINUTE },
  signUpIp: { name: 'sign-up:ip', limit: 10, windowMs: 60 * MINUTE },
  signUpEmail: { name: 'sign-up:email', limit: 5, windowMs: 60 * MINUTE },
  codeSendIp: { name: 'code-send:ip', limit: 10, windowMs: 10 * MINUTE },
  // At most one code email per address per 60 seconds.
  codeSendEmail: { name: 'code-send:email', limit: 1, windowMs: MINUTE },
  codeVerifyIp: { name: 'code-verify:ip', limit: 30, windowMs: 10 * MINUTE },
  codeVerifyEmail: { name: 'code-verify:email', limit: 15, windowMs: 10 * MINUTE },
  // Guessing share-link keys: a few wrong keys are typos, many are a search.
  /** Wrong OpenSubsonic API keys from one address (a player app guessing). */
  playerKeyMissIp: { name: 'player-key-miss:ip', limit: 20, windowMs: 10 * MINUTE },
  linkMissIp: { name: 'link-miss:ip', limit: 20, windowMs: 10 * MINUTE },
  // Password tries (each counted before it is checked) on one share link (version or collection)
  // from one address: an IPv4 address or an IPv6 /64.
  linkUnlock: { name: 'link-unlock:link-ip', limit: 5, windowMs: 10 * MINUTE },
  // Password tries on one share link from all addresses together, since addresses are cheap to
  // rotate: 50 an hour lets ten listeners mistype five times each, and holds a guesser to 1,200
  // a day (common passwords are refused anyway).
  linkUnlockLink: { name: 'link-unlock:link', limit: 50, windowMs: 60 * MINUTE },
  visitorCommentLinkIp: { name: 'visitor-comment:link-ip', limit: 20, windowMs: 10 * MINUTE },
  // New listeners (browsers without the test's cookie) one address brings to one blind test's
  // link: a household or an office shares an address; a script making listeners does not pass.
  blindListenerLinkIp: { name: 'blind-listener:link-ip', limit: 30, windowMs: 60 * MINUTE },
  // Votes, ABX trials started and answered by one listener: 20 trials take 40 requests.
  blindActionListener: { name: 'blind-action:listener', limit: 120, windowMs: 10 * MINUTE },
  // New 'Download all' zips one address has built for one collection link (a fresh zip of the
  // same items is handed out again without counting).
  collectionZipLinkIp: {
    name: 'collection-zip:link-ip',
    limit: COLLECTION_ZIP_STARTS_PER_HOUR,
    windowMs: 60 * MINUTE,
  },
  // Emails to addresses a person types (invitations, their resends, collection links sent to
  // recipients): one budget per account and hour, whichever route sends them.
  mailSendUser: {
    name: 'mail-send:user',
    limit: EMAILS_PER_HOUR,
    windowMs: 60 * MINUTE,
  },
  // Guessing invitation tokens, counted like share-link misses.
  invitationMissIp: { name: 'invitation-miss:ip', limit: 20, windowMs: 10 * MINUTE },
  // Share links' play and download counts: one per link, item, event, listener and address an
  // hour (sharing/listen-counts.ts), so asking again does not inflate them.
  linkListenCount: { name: 'link-count:listener', limit: 1, windowMs: 60 * MINUTE },
} satisfies Record<string, RateRule>;
