import { randomUUID } from 'node:crypto';
import {
  DEFAULT_NOTIFICATION_CHANNELS,
  notificationChannelSchema,
  type ActivityKind,
  type NotificationCategory,
  type NotificationChannel,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { ActivityTable, NotificationsTable } from '../../db/schema';
import type { JobQueue } from '../../jobs/job-queue';
import { parseActivityData } from '../activity';
import { scheduleBatch } from './jobs';
import type { Audience, Executor, NotificationsRepo } from './notifications.repo';

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
  // A guest's file is heard (and emailed, batched) like a comment, by everyone but Viewers.
  'guest_file.received': 'comments',
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
  'member.access_requested': 'membership',
};

/**
 * Kinds emailed as well unless the person chose a channel for their category: an access request
 * waits on its owner, who may not open Takes for days.
 */
const EMAILED_UNLESS_CHOSEN: ReadonlySet<ActivityKind> = new Set(['member.access_requested']);

/** A person's channel for a category: what they chose, else the category's default. */
export function channelOf(
  stored: string | undefined,
  category: NotificationCategory,
): NotificationChannel {
  const parsed = notificationChannelSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_NOTIFICATION_CHANNELS[category];
}

/**
 * Who hears of what: each recorded activity row fans out, in its own transaction, to the people
 * who should hear of it (by their preference per category: in-app, in-app and email, or not at
 * all); a recipient's first waiting email starts their batch window.
 */
export class NotificationFanOut {
  constructor(
    private readonly deps: {
      repo: NotificationsRepo;
      clock: Clock;
      jobs: JobQueue;
      batchSeconds: number;
    },
  ) {}

  /** An ActivityLog listener: runs inside the recording transaction. */
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
      const stored = chosen.get(userId);
      const channel =
        stored === undefined && EMAILED_UNLESS_CHOSEN.has(row.kind as ActivityKind)
          ? 'email_and_in_app'
          : channelOf(stored, category);
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
      await scheduleBatch(
        this.deps,
        db,
        userId,
        rows.find((r) => r.user_id === userId)?.id ?? row.id,
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
    if (kind === 'member.access_requested') {
      // The project's owner decides; nobody else is told (the person asking is no member).
      for (const a of audience) if (a.role === 'owner') result.add(a.userId);
      return [...result];
    }
    if (kind === 'collection_link.first_played') {
      // The collection's owner (who could read the item when it played), no one else.
      const owner = parseActivityData(row.data).owner_id;
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
}
