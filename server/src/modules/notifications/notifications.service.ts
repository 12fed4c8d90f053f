import { randomUUID } from 'node:crypto';
import {
  DEFAULT_NOTIFICATION_CHANNELS,
  DEMO_EMAIL_DOMAIN,
  NOTIFICATION_CATEGORIES,
  notificationChannelSchema,
  type ActivityKind,
  type Notification,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationPreferences,
  type NotificationsPage,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { ActivityTable, NotificationsTable } from '../../db/schema';
import { Gone, Invalid } from '../../errors';
import { cursorTime } from '../activity';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobLogger } from '../../jobs/registry';
import type { Mailer } from '../../mail/mailer';
import { sendBatchJob } from './batch-job';
import {
  batchEmail,
  unsubscribedPage,
  UnsubscribeTokens,
  type BatchItem,
} from './notification-email';
import { pagePath, presentActivity } from './notification-presenter';
import type { Audience, Executor, NotificationRow, NotificationsRepo } from './notifications.repo';

/**
 * Which kinds notify, in which category. Kinds not listed are activity only: resolving,
 * reopening or deleting a comment, links made or revoked, branches and project settings, a
 * version deleted, an invitation (the members module emails the invited person itself).
 */
const CATEGORY_OF: Partial<Record<ActivityKind, NotificationCategory>> = {
  'comment.posted': 'comments',
  'comment.replied': 'comments',
  // An approval or a change request is feedback, heard like a comment.
  'version.review_changed': 'comments',
  'version.uploaded': 'versions',
  'bounce.published': 'versions',
  'repo.committed': 'versions',
  'link.first_played': 'versions',
  'collection_link.first_played': 'versions',
  'version.failed': 'processing',
  'version.processed': 'processing',
  'member.joined': 'membership',
  'member.left': 'membership',
  'member.removed': 'membership',
  'member.role_changed': 'membership',
};

export interface NotificationsDeps {
  repo: NotificationsRepo;
  clock: Clock;
  jobs: JobQueue;
  mailer: Mailer;
  secret: string;
  publicUrl: string;
  /** NOTIFICATION_BATCH_SECONDS: one email per recipient per window of this length. */
  batchSeconds: number;
}

/**
 * Who hears of what: each recorded activity row fans out, in its own transaction, to the people
 * who should hear of it (by their preference per category: in-app, in-app and email, or not at
 * all); emails go out batched, one per recipient per window, idempotently.
 */
export class NotificationsService {
  private readonly tokens: UnsubscribeTokens;

  constructor(private readonly deps: NotificationsDeps) {
    this.tokens = new UnsubscribeTokens(deps.secret);
  }

  // ---- fan-out (an ActivityLog listener: runs inside the recording transaction) ----

  async fanOut(db: Executor, row: ActivityTable): Promise<void> {
    const category = CATEGORY_OF[row.kind as ActivityKind];
    if (!category) return;
    const recipients = await this.recipients(db, row, category);
    if (recipients.length === 0) return;
    const chosen = await this.deps.repo.channels(db, recipients, category);
    const now = this.deps.clock.now();
    const rows: NotificationsTable[] = [];
    const toEmail: string[] = [];
    for (const userId of recipients) {
      const channel = channelOf(chosen.get(userId), category);
      if (channel === 'off') continue;
      const email = channel === 'email_and_in_app';
      rows.push({
        id: randomUUID(),
        user_id: userId,
        activity_id: row.id,
        category,
        email: email ? 1 : 0,
        read_at: null,
        emailed_at: null,
        created_at: now.toISOString(),
      });
      if (email) toEmail.push(userId);
    }
    // A recipient with nothing waiting for an email starts a window: their batch job runs at its
    // end and takes everything that arrived meanwhile. Asked before inserting this event's rows.
    const starts: string[] = [];
    for (const userId of toEmail)
      if (!(await this.deps.repo.hasPendingEmail(db, userId))) starts.push(userId);
    await this.deps.repo.insert(db, rows);
    for (const userId of starts)
      await this.scheduleBatch(db, userId, rows.find((r) => r.user_id === userId)?.id ?? row.id);
  }

  private async scheduleBatch(db: Executor, userId: string, firstId: string): Promise<void> {
    await this.deps.jobs.enqueue(
      sendBatchJob,
      { userId, batchId: `${userId}:${firstId}` },
      { executor: db, delayMs: this.deps.batchSeconds * 1000 },
    );
  }

  /**
   * The owner and members of the row's project or repository, never the actor; Viewers not of
   * comments; the author of the comment a reply answers (any role, while they can still see the
   * project); processing results to the uploader only when finished, to everyone when failed;
   * a link's first play to the link's owner only.
   */
  private async recipients(
    db: Executor,
    row: ActivityTable,
    category: NotificationCategory,
  ): Promise<string[]> {
    const target = row.project_id
      ? { projectId: row.project_id }
      : row.repo_id
        ? { repoId: row.repo_id }
        : undefined;
    if (!target) return [];
    const audience = await this.deps.repo.audience(db, target);
    const can = new Map(audience.map((a): [string, Audience['role']] => [a.userId, a.role]));
    const result = new Set<string>();
    const kind = row.kind as ActivityKind;

    if (kind === 'version.processed' || kind === 'version.failed') {
      // The job finishes the version; its recorded actor is the uploader (or nobody): the
      // uploader hears of either outcome, the others of a failure only.
      const uploader =
        row.actor_id ?? (row.target_id ? await this.deps.repo.uploaderOf(db, row.target_id) : null);
      if (uploader && can.has(uploader)) result.add(uploader);
      if (kind === 'version.failed') for (const a of audience) result.add(a.userId);
      return [...result];
    }
    if (kind === 'collection_link.first_played') {
      // The collection's owner (who could read the item when it played), no one else.
      const { owner_id: owner } = JSON.parse(row.data) as { owner_id?: unknown };
      if (typeof owner === 'string' && can.has(owner)) result.add(owner);
      return [...result];
    }
    if (kind === 'link.first_played') {
      const owner = row.target_id ? await this.deps.repo.linkOwner(db, row.target_id) : null;
      if (owner && can.has(owner)) result.add(owner);
      return [...result];
    }

    for (const a of audience) {
      if (category === 'comments' && a.role === 'viewer') continue;
      result.add(a.userId);
    }
    if (kind === 'comment.replied' && row.target_id) {
      const author = await this.deps.repo.parentCommentAuthor(db, row.target_id);
      if (author && can.has(author)) result.add(author);
    }
    // A removed member no longer sees the project: they are not told of it here.
    if (kind === 'member.removed' && row.target_id) result.delete(row.target_id);
    if (row.actor_id) result.delete(row.actor_id);
    return [...result];
  }

  // ---- in-app ----

  async list(
    userId: string,
    query: { cursor?: string; limit: number; unread?: 'true' | 'false' },
  ): Promise<NotificationsPage> {
    const before = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.deps.repo.list(userId, {
      limit: query.limit + 1,
      unreadOnly: query.unread === 'true',
      before,
    });
    const page = rows.slice(0, query.limit);
    const items = await this.present(page);
    const last = page[page.length - 1];
    return {
      items,
      next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      unread_count: await this.deps.repo.unreadCount(userId),
    };
  }

  async markRead(
    userId: string,
    body: { ids: string[] } | { all: true } | { href: string },
  ): Promise<void> {
    const at = this.deps.clock.now().toISOString();
    if ('all' in body) return this.deps.repo.markRead(userId, 'all', at);
    if ('ids' in body) return this.deps.repo.markRead(userId, body.ids, at);
    const page = pagePath(body.href);
    // Only a project's or a repository's pages have notifications: look among that place's.
    const place = /^\/(projects|repositories)\/([^/]+)/.exec(page);
    if (!place?.[2]) return;
    const unread = await this.deps.repo.unread(
      userId,
      place[1] === 'projects' ? { projectId: place[2] } : { repoId: place[2] },
    );
    const items = await this.present(unread);
    const ids = items
      .filter((n) => n.activity.href !== null && pagePath(n.activity.href) === page)
      .map((n) => n.id);
    await this.deps.repo.markRead(userId, ids, at);
  }

  private async present(rows: NotificationRow[]): Promise<Notification[]> {
    const contexts = await this.deps.repo.contexts(rows.map((r) => r.activity));
    return rows.map((r) => ({
      id: r.id,
      category: r.category as NotificationCategory,
      read: r.read_at !== null,
      created_at: r.created_at,
      activity: presentActivity(r.activity, contexts.get(r.activity.id)),
    }));
  }

  // ---- preferences ----

  async preferences(userId: string): Promise<NotificationPreferences> {
    const rows = await this.deps.repo.preferences(userId);
    const chosen = new Map(rows.map((r) => [r.category, r.channel]));
    const result = { ...DEFAULT_NOTIFICATION_CHANNELS };
    for (const category of NOTIFICATION_CATEGORIES)
      result[category] = channelOf(chosen.get(category), category);
    return result;
  }

  async updatePreferences(
    userId: string,
    body: NotificationPreferences,
  ): Promise<NotificationPreferences> {
    await this.deps.repo.transaction(async (trx) => {
      for (const category of NOTIFICATION_CATEGORIES)
        await this.deps.repo.setPreference(trx, userId, category, body[category]);
    });
    return this.preferences(userId);
  }

  // ---- unsubscribe (no session: the signed token says who and what) ----

  /** Turns email off (to 'In-app only') for the token's recipient and categories. */
  async unsubscribe(token: string): Promise<{ categories: NotificationCategory[] }> {
    const claim = this.tokens.verify(token);
    if (!claim) throw new Gone('This unsubscribe link is not valid.');
    if (!(await this.deps.repo.recipient(claim.userId)))
      throw new Gone('This unsubscribe link is not valid.');
    const current = await this.preferences(claim.userId);
    await this.deps.repo.transaction(async (trx) => {
      for (const category of claim.categories)
        // 'Off' stays off: unsubscribing from email never turns in-app notifications on.
        if (current[category] === 'email_and_in_app')
          await this.deps.repo.setPreference(trx, claim.userId, category, 'in_app');
    });
    return { categories: claim.categories };
  }

  async unsubscribePage(token: string): Promise<string> {
    const { categories } = await this.unsubscribe(token);
    return unsubscribedPage(categories, this.deps.publicUrl);
  }

  unsubscribeToken(userId: string, categories: NotificationCategory[]): string {
    return this.tokens.sign(userId, categories);
  }

  // ---- the email batch (the notifications.send-batch job) ----

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
      if (first) await this.scheduleBatch(trx, userId, first.id);
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
      const items = await this.batchItems(trx, pending);
      const categories = [...new Set(items.map((i) => i.category))];
      const message = batchEmail({
        to: recipient.email,
        items,
        publicUrl: this.deps.publicUrl,
        unsubscribeToken: this.tokens.sign(payload.userId, categories),
      });
      return { ids, message };
    });
  }

  /** The last step of sendBatch: the batch was sent. */
  async recordSent(batchId: string): Promise<void> {
    await this.deps.repo.markBatchSent(batchId, this.deps.clock.now().toISOString());
  }

  private async batchItems(db: Executor, rows: NotificationRow[]): Promise<BatchItem[]> {
    const contexts = await this.deps.repo.contexts(
      rows.map((r) => r.activity),
      db,
    );
    return rows.map((r) => {
      const ctx = contexts.get(r.activity.id);
      return {
        category: r.category as NotificationCategory,
        activity: presentActivity(r.activity, ctx),
        place: ctx?.projectName ?? ctx?.repoName ?? null,
        versionLabel: ctx?.version ? `Version ${ctx.version.number}` : null,
      };
    });
  }
}

function channelOf(
  stored: string | undefined,
  category: NotificationCategory,
): NotificationChannel {
  const parsed = notificationChannelSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_NOTIFICATION_CHANNELS[category];
}

function encodeCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(`${row.created_at}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const time = createdAt && id ? cursorTime(createdAt) : null;
  if (!time || !id) throw new Invalid('That cursor is not valid.');
  return { createdAt: time, id };
}
