import { DEMO_EMAIL_DOMAIN } from '@takes/contract';
import type { Clock } from '../../clock';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobLogger } from '../../jobs/registry';
import type { Mailer } from '../../mail/mailer';
import { scheduleBatch } from './jobs';
import { batchEmail, type UnsubscribeTokens } from './notification-email';
import { toBatchItem } from './notification-rows';
import type { NotificationsRepo } from './notifications.repo';

/**
 * The batched emails (the notifications.send-batch job): one email per recipient per window,
 * sent at most once.
 */
export class NotificationBatches {
  constructor(
    private readonly deps: {
      repo: NotificationsRepo;
      clock: Clock;
      jobs: JobQueue;
      mailer: Mailer;
      tokens: UnsubscribeTokens;
      publicUrl: string;
      batchSeconds: number;
    },
  ) {}

  /**
   * Sends one batch, at most once. In one transaction it claims the batch (writes its
   * notification_emails row with sent_at null; a row already there means an earlier run sent it
   * or may have: nothing is sent again) and marks the waiting notifications emailed; then it
   * sends; then it records sent_at. A send that the mail server refused releases the claim so
   * the retry sends it; a worker that dies after sending leaves the claim, and the retry sends
   * nothing (at most once: a lost email is better than a duplicate).
   */
  async sendBatch(
    payload: { userId: string; batchId: string },
    logger?: JobLogger,
  ): Promise<'sent' | 'nothing' | 'already'> {
    const prepared = await this.claimBatch(payload);
    if (prepared === 'already' || prepared === 'nothing') return prepared;
    try {
      await this.deps.mailer.send(prepared.message);
    } catch (error) {
      await this.deps.repo.transaction((trx) =>
        this.deps.repo.releaseBatch(trx, payload.batchId, prepared.ids),
      );
      throw error;
    }
    await this.recordSent(payload.batchId);
    logger?.info(
      { batchId: payload.batchId, count: prepared.ids.length },
      'notification email sent',
    );
    await this.scheduleLeftovers(payload.userId);
    return 'sent';
  }

  /**
   * A notification made while this batch was being claimed saw the claimed ones still waiting
   * and scheduled nothing: it starts the next window here, so it is never left without a job.
   */
  private async scheduleLeftovers(userId: string): Promise<void> {
    await this.deps.repo.transaction(async (trx) => {
      const [first] = await this.deps.repo.pendingEmail(trx, userId);
      if (first) await scheduleBatch(this.deps, trx, userId, first.id);
    });
  }

  /** The first step of sendBatch: claim the batch and build its email (exposed for tests). */
  async claimBatch(payload: {
    userId: string;
    batchId: string;
  }): Promise<'already' | 'nothing' | { ids: string[]; message: ReturnType<typeof batchEmail> }> {
    const now = this.deps.clock.now().toISOString();
    const recipient = await this.deps.repo.recipient(payload.userId);
    if (!recipient) return 'nothing';
    return this.deps.repo.transaction(async (trx) => {
      if (recipient.email.endsWith(`@${DEMO_EMAIL_DOMAIN}`)) {
        // A 'Try demo' account has no mailbox: its notifications stay in-app.
        const pending = await this.deps.repo.pendingEmail(trx, payload.userId);
        await this.deps.repo.markEmailed(
          trx,
          pending.map((p) => p.id),
          now,
        );
        return 'nothing' as const;
      }
      if (await this.deps.repo.batchRecord(trx, payload.batchId)) return 'already' as const;
      const pending = await this.deps.repo.pendingEmail(trx, payload.userId);
      // Nothing waiting (an earlier batch took it all): no email, and no record of one.
      if (pending.length === 0) return 'nothing' as const;
      const claimed = await this.deps.repo.claimBatch(trx, payload.batchId, payload.userId, now);
      if (!claimed) return 'already' as const;
      const ids = pending.map((p) => p.id);
      await this.deps.repo.markEmailed(trx, ids, now);
      const items = pending.map(toBatchItem);
      const categories = [...new Set(items.map((i) => i.category))];
      const message = batchEmail({
        to: recipient.email,
        items,
        publicUrl: this.deps.publicUrl,
        unsubscribeToken: this.deps.tokens.sign(payload.userId, categories),
      });
      return { ids, message };
    });
  }

  /** The last step of sendBatch: the batch was sent. */
  async recordSent(batchId: string): Promise<void> {
    await this.deps.repo.markBatchSent(batchId, this.deps.clock.now().toISOString());
  }
}
