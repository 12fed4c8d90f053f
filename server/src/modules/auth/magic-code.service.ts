import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';

export const MAGIC_CODE_TTL_MS = 10 * 60 * 1000;
export const MAGIC_CODE_MAX_FAILURES = 5;

/**
 * One email carries a 6-digit code and a link; either signs the owner in once. A new send
 * replaces the previous code and link; the 5th wrong code voids the code.
 */
export class MagicCodeService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      mailer: Mailer;
      clock: Clock;
      secret: string;
      publicUrl: string;
    },
  ) {}

  async send(email: string): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const linkToken = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    const row = {
      code_hash: this.digest(`code:${email}:${code}`),
      link_token_hash: this.digest(`link:${linkToken}`),
      failed_attempts: 0,
      expires_at: new Date(now.getTime() + MAGIC_CODE_TTL_MS).toISOString(),
      sent_at: now.toISOString(),
    };
    await this.deps.db
      .insertInto('magic_codes')
      .values({ email, ...row })
      .onConflict((oc) => oc.column('email').doUpdateSet(row))
      .execute();
    const link = `${this.deps.publicUrl}/api/auth/magic-code/link?token=${linkToken}`;
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

  /** True when the code is right; consumes it. A wrong code counts towards the limit. */
  async verifyCode(email: string, code: string): Promise<boolean> {
    const nowIso = this.deps.clock.now().toISOString();
    const row = await this.deps.db
      .selectFrom('magic_codes')
      .selectAll()
      .where('email', '=', email)
      .where('expires_at', '>', nowIso)
      .executeTakeFirst();
    if (!row) return false;
    if (!this.matches(row.code_hash, `code:${email}:${code}`)) {
      const failed = await this.deps.db
        .updateTable('magic_codes')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('email', '=', email)
        .where('code_hash', '=', row.code_hash)
        .returning('failed_attempts')
        .executeTakeFirst();
      if (failed && failed.failed_attempts >= MAGIC_CODE_MAX_FAILURES) {
        await this.deps.db.deleteFrom('magic_codes').where('email', '=', email).execute();
      }
      return false;
    }
    // Deleting the exact row makes the code single use even when two requests race.
    const consumed = await this.deps.db
      .deleteFrom('magic_codes')
      .where('email', '=', email)
      .where('code_hash', '=', row.code_hash)
      .where('failed_attempts', '<', MAGIC_CODE_MAX_FAILURES)
      .executeTakeFirst();
    return Number(consumed.numDeletedRows) === 1;
  }

  /** The email a link token proves, consuming it; undefined when unknown, used or expired. */
  async consumeLink(token: string): Promise<string | undefined> {
    const nowIso = this.deps.clock.now().toISOString();
    const row = await this.deps.db
      .deleteFrom('magic_codes')
      .where('link_token_hash', '=', this.digest(`link:${token}`))
      .where('expires_at', '>', nowIso)
      .returning('email')
      .executeTakeFirst();
    return row?.email;
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
