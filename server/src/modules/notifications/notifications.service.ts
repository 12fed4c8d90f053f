import {
  DEFAULT_NOTIFICATION_CHANNELS,
  NOTIFICATION_CATEGORIES,
  type Notification,
  type NotificationCategory,
  type NotificationPreferences,
  type NotificationsPage,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { ActivityTable } from '../../db/schema';
import { Gone, Invalid } from '../../errors';
import { cursorTime } from '../activity';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobLogger } from '../../jobs/registry';
import type { Mailer } from '../../mail/mailer';
import { NotificationBatches } from './notification-batches';
import { unsubscribedPage, UnsubscribeTokens } from './notification-email';
import { channelOf, NotificationFanOut } from './notification-fan-out';
import { toNotification } from './notification-rows';
import type { Executor, NotificationRow, NotificationsRepo } from './notifications.repo';

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
 * Notifications, the module's one service: the fan-out of each recorded activity row
 * (`NotificationFanOut`), the in-app list, preferences and unsubscribing (here), and the batched
 * emails (`NotificationBatches`). Every line is the activity presenter's.
 */
export class NotificationsService {
  private readonly tokens: UnsubscribeTokens;
  private readonly fan: NotificationFanOut;
  private readonly batches: NotificationBatches;

  constructor(private readonly deps: NotificationsDeps) {
    this.tokens = new UnsubscribeTokens(deps.secret);
    this.fan = new NotificationFanOut(deps);
    this.batches = new NotificationBatches({ ...deps, tokens: this.tokens });
  }

  /** An ActivityLog listener: runs inside the recording transaction. */
  fanOut(db: Executor, row: ActivityTable): Promise<void> {
    return this.fan.fanOut(db, row);
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
    const last = page[page.length - 1];
    return {
      items: page.map(toNotification),
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
    const unread: NotificationRow[] = await this.deps.repo.unread(
      userId,
      place[1] === 'projects' ? { projectId: place[2] } : { repoId: place[2] },
    );
    const ids = unread
      .map(toNotification)
      .filter((n: Notification) => n.activity.href !== null && pagePath(n.activity.href) === page)
      .map((n) => n.id);
    await this.deps.repo.markRead(userId, ids, at);
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

  // ---- the email batch (the notifications.send-batch job; see NotificationBatches) ----

  sendBatch(
    payload: { userId: string; batchId: string },
    logger?: JobLogger,
  ): Promise<'sent' | 'nothing' | 'already'> {
    return this.batches.sendBatch(payload, logger);
  }

  /** The first step of sendBatch: claim the batch and build its email (exposed for tests). */
  claimBatch(payload: { userId: string; batchId: string }) {
    return this.batches.claimBatch(payload);
  }

  /** The last step of sendBatch: the batch was sent. */
  recordSent(batchId: string): Promise<void> {
    return this.batches.recordSent(batchId);
  }
}

/** A page's path, as notifications of it are matched: no query, no fragment, no trailing slash. */
export function pagePath(href: string): string {
  const path = href.replace(/^https?:\/\/[^/]+/, '').split(/[?#]/)[0] ?? '';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
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
