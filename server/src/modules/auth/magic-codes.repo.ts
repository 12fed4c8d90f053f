import type { Kysely, Selectable } from 'kysely';
import type { Database, MagicCodesTable } from '../../db/schema';

/** SQL for emailed sign-in codes and links, and each address's budget of wrong codes. */
export class MagicCodesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The address's one code and link: a new send replaces the previous ones. */
  async upsert(
    email: string,
    row: {
      code_hash: string;
      link_token_hash: string;
      failed_attempts: number;
      expires_at: string;
      sent_at: string;
    },
  ): Promise<void> {
    await this.db
      .insertInto('magic_codes')
      .values({ email, ...row })
      .onConflict((oc) => oc.column('email').doUpdateSet(row))
      .execute();
  }

  lockedUntil(email: string): Promise<{ locked_until: string | null } | undefined> {
    return this.db
      .selectFrom('magic_code_failures')
      .select('locked_until')
      .where('email', '=', email)
      .executeTakeFirst();
  }

  findLive(email: string, now: string): Promise<Selectable<MagicCodesTable> | undefined> {
    return this.db
      .selectFrom('magic_codes')
      .selectAll()
      .where('email', '=', email)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** One more wrong try on this exact code; the new count, or undefined when it was replaced. */
  async countWrongTry(email: string, codeHash: string): Promise<number | undefined> {
    const failed = await this.db
      .updateTable('magic_codes')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('email', '=', email)
      .where('code_hash', '=', codeHash)
      .returning('failed_attempts')
      .executeTakeFirst();
    return failed?.failed_attempts;
  }

  async delete(email: string): Promise<void> {
    await this.db.deleteFrom('magic_codes').where('email', '=', email).execute();
  }

  /** Deletes this exact code if it still has tries left; true when this call used it. */
  async consume(email: string, codeHash: string, maxFailures: number): Promise<boolean> {
    const consumed = await this.db
      .deleteFrom('magic_codes')
      .where('email', '=', email)
      .where('code_hash', '=', codeHash)
      .where('failed_attempts', '<', maxFailures)
      .executeTakeFirst();
    return Number(consumed.numDeletedRows) === 1;
  }

  async emailForLink(linkTokenHash: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('magic_codes')
      .select('email')
      .where('link_token_hash', '=', linkTokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.email;
  }

  /** Deletes the link's code row; the email it proved, or undefined when unknown or expired. */
  async consumeLink(linkTokenHash: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('magic_codes')
      .where('link_token_hash', '=', linkTokenHash)
      .where('expires_at', '>', now)
      .returning('email')
      .executeTakeFirst();
    return row?.email;
  }

  /**
   * Counts one wrong code against the address's day: a day begun at or before `dayAgo` starts
   * again at one. Answers the count with the address's lock-out record.
   */
  countFailure(email: string, now: string, dayAgo: string) {
    return this.db
      .insertInto('magic_code_failures')
      .values({ email, failures: 1, window_start: now })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('magic_code_failures.window_start', '<=', dayAgo)
            .then(1)
            .else(eb('magic_code_failures.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('magic_code_failures.window_start', '<=', dayAgo)
            .then(now)
            .else(eb.ref('magic_code_failures.window_start'))
            .end(),
        })),
      )
      .returning(['failures', 'lockouts', 'locked_until'])
      .executeTakeFirstOrThrow();
  }

  /** Locks code sign-in for the address and voids its current code, at once. */
  async lock(
    email: string,
    lock: { now: string; lockouts: number; lockedUntil: string },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('magic_code_failures')
        .set({
          failures: 0,
          window_start: lock.now,
          lockouts: lock.lockouts,
          locked_until: lock.lockedUntil,
        })
        .where('email', '=', email)
        .execute();
      await trx.deleteFrom('magic_codes').where('email', '=', email).execute();
    });
  }

  /** Deletes the budgets whose day began at or before `dayAgo` and whose lock-out (if any)
   * ended at or before `forgotten`; answers how many. */
  async pruneFailures(dayAgo: string, forgotten: string): Promise<number> {
    const result = await this.db
      .deleteFrom('magic_code_failures')
      .where('window_start', '<=', dayAgo)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', forgotten)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
