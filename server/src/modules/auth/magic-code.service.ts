import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock';
import { RateLimited } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import type { MagicCodesRepo } from './magic-codes.repo';

export const MAGIC_CODE_TTL_MS = 10 * 60 * 1000;
export const MAGIC_CODE_MAX_FAILURES = 5;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Wrong codes an address may get per day, whatever the resends, before code sign-in locks. */
export const CODE_FAILURE_BUDGET = 10;
/** The 1st, 2nd and 3rd (and later) lock-out in a row. */
export const CODE_LOCKOUT_STEPS_MS = [HOUR_MS, 6 * HOUR_MS, 24 * HOUR_MS] as const;
/** A week without a lock-out and the next one starts again at the shortest. */
const LOCKOUT_MEMORY_MS = 7 * DAY_MS;
/** Where the emailed link leads: a page that asks before it signs in. */
export const MAGIC_LINK_PAGE = '/magic-link';

/**
 * Removes the failure budgets nothing remembers any more: their day is over and any lock-out ended
 * more than a week ago (after which the next lock-out starts at the first step again anyway).
 */
export function pruneCodeFailures(codes: MagicCodesRepo, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const forgotten = new Date(now.getTime() - LOCKOUT_MEMORY_MS).toISOString();
  return codes.pruneFailures(dayAgo, forgotten);
}

/**
 * One email carries a 6-digit code and a link; either signs the owner in once. A new send
 * replaces the previous code and link; the 5th wrong code voids the code. Each address
 * also has a daily budget of wrong codes that a resend does not reset: spending it locks
 * sign-in by code for 1 h, then 6 h, then 24 h, and tells the address's owner. The link
 * (which only the mailbox's owner has) keeps working.
 */
export class MagicCodeService {
  constructor(
    private readonly deps: {
      codes: MagicCodesRepo;
      mailer: Mailer;
      clock: Clock;
      secret: string;
      publicUrl: string;
    },
  ) {}

  /** The recurring clean-up of failure budgets nothing remembers any more (see pruneCodeFailures). */
  pruneFailures(): Promise<number> {
    return pruneCodeFailures(this.deps.codes, this.deps.clock.now());
  }

  async send(email: string): Promise<void> {
    const { code, linkToken } = await this.newCode(email);
    // The token rides in the fragment: browsers never send it, so no log holds it.
    const link = `${this.deps.publicUrl}${MAGIC_LINK_PAGE}#token=${linkToken}`;
    await this.deps.mailer.send({
      to: email,
      subject: 'Your Takes sign-in code',
      text: [
        `Your sign-in code: ${code}`,
        '',
        'Or open this link to sign in:',
        link,
        '',
        'The code and the link expire in 10 minutes and work once.',
        'If you did not ask to sign in to Takes, you can ignore this email.',
      ].join('\n'),
    });
  }

  /**
   * Emails a signed-in person a code that proves their address (checked with `verifyCode`, under
   * the same limits as a sign-in code). No link: the person is signed in already and only types
   * the code. It replaces any sign-in code the address had.
   */
  async sendAddressCheck(email: string): Promise<void> {
    const { code } = await this.newCode(email);
    await this.deps.mailer.send({
      to: email,
      subject: 'Confirm your email address for Takes',
      text: [
        `Your confirmation code: ${code}`,
        '',
        'Enter it in Takes to confirm that this address is yours.',
        'The code expires in 10 minutes and works once.',
        'If you did not ask for it, you can ignore this email.',
      ].join('\n'),
    });
  }

  /** A new code (and link) for the address, replacing the previous ones. */
  private async newCode(email: string): Promise<{ code: string; linkToken: string }> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const linkToken = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    await this.deps.codes.upsert(email, {
      code_hash: this.digest(`code:${email}:${code}`),
      link_token_hash: this.digest(`link:${linkToken}`),
      failed_attempts: 0,
      expires_at: new Date(now.getTime() + MAGIC_CODE_TTL_MS).toISOString(),
      sent_at: now.toISOString(),
    });
    return { code, linkToken };
  }

  /**
   * True when the code is right; consumes it. A wrong code counts towards the code's limit
   * and the address's daily budget; while the address is locked out this answers 429.
   */
  async verifyCode(email: string, code: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const budget = await this.deps.codes.lockedUntil(email);
    if (budget?.locked_until && budget.locked_until > nowIso)
      throw lockedOut(budget.locked_until, now);
    const row = await this.deps.codes.findLive(email, nowIso);
    if (!row) return false;
    if (!this.matches(row.code_hash, `code:${email}:${code}`)) {
      const failed = await this.deps.codes.countWrongTry(email, row.code_hash);
      if (failed !== undefined && failed >= MAGIC_CODE_MAX_FAILURES) {
        await this.deps.codes.delete(email);
      }
      await this.countFailure(email);
      return false;
    }
    // Deleting the exact row makes the code single use even when two requests race.
    return this.deps.codes.consume(email, row.code_hash, MAGIC_CODE_MAX_FAILURES);
  }

  /** The email a link token would prove, without using it up; undefined when no good. */
  async peekLink(token: string): Promise<string | undefined> {
    return this.deps.codes.emailForLink(
      this.digest(`link:${token}`),
      this.deps.clock.now().toISOString(),
    );
  }

  /** The email a link token proves, consuming it; undefined when unknown, used or expired. */
  async consumeLink(token: string): Promise<string | undefined> {
    const nowIso = this.deps.clock.now().toISOString();
    return this.deps.codes.consumeLink(this.digest(`link:${token}`), nowIso);
  }

  /**
   * Counts one wrong code against the address's day. The attempt that spends the budget
   * locks code sign-in (longer each time in a row) and emails the owner; it and any racing
   * attempt answer 429.
   */
  private async countFailure(email: string): Promise<void> {
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
    const counted = await this.deps.codes.countFailure(email, nowIso, dayAgo);
    if (counted.failures < CODE_FAILURE_BUDGET) return;
    if (counted.failures > CODE_FAILURE_BUDGET) {
      // A racing attempt already tripped the lock-out (or is about to).
      const until =
        counted.locked_until && counted.locked_until > nowIso
          ? counted.locked_until
          : new Date(now.getTime() + HOUR_MS).toISOString();
      throw lockedOut(until, now);
    }
    const recent =
      counted.locked_until !== null &&
      counted.locked_until > new Date(now.getTime() - LOCKOUT_MEMORY_MS).toISOString();
    const lockouts = Math.min((recent ? counted.lockouts : 0) + 1, CODE_LOCKOUT_STEPS_MS.length);
    const lockMs = CODE_LOCKOUT_STEPS_MS[lockouts - 1] ?? HOUR_MS;
    const lockedUntil = new Date(now.getTime() + lockMs).toISOString();
    await this.deps.codes.lock(email, { now: nowIso, lockouts, lockedUntil });
    await this.deps.mailer.send({
      to: email,
      subject: 'Someone tried to sign in to your Takes account',
      text: [
        `Someone tried to sign in to your Takes account (${email}) with ${CODE_FAILURE_BUDGET} wrong sign-in codes.`,
        '',
        `To protect it, signing in with an emailed code is locked for ${duration(lockMs)}. Nobody got in.`,
        'If this was you, you can still sign in with the link in a new sign-in email.',
        'If it was not you, you need not do anything: only someone who can read this mailbox can use a sign-in link.',
      ].join('\n'),
    });
    throw lockedOut(lockedUntil, now);
  }

  // Keyed with the server secret: a leaked table does not let anyone test 10^6 codes offline.
  private digest(value: string): string {
    return createHmac('sha256', this.deps.secret).update(value).digest('hex');
  }

  private matches(storedHex: string, value: string): boolean {
    const expected = Buffer.from(storedHex, 'hex');
    const given = Buffer.from(this.digest(value), 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function duration(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

function lockedOut(lockedUntil: string, now: Date): RateLimited {
  const left = duration(new Date(lockedUntil).getTime() - now.getTime());
  return new RateLimited(
    `Too many wrong codes for this email address. Signing in with a code is locked for ${left}; you can still use the link in a new sign-in email.`,
  );
}
