import type { Kysely } from 'kysely';
import type { Database, MemberRole, NotificationsTable } from '../../db/schema';
import { selectNotifications, toNotificationRow, type NotificationRow } from './notification-rows';

export type { NotificationRow } from './notification-rows';

/** The database or a transaction on it (the fan-out runs inside the recording transaction). */
export type Executor = Kysely<Database>;

/** Someone who can see a project or a repository: its owner, or a member with a role. */
export interface Audience {
  userId: string;
  role: 'owner' | MemberRole;
}

/** SQL for notifications, their preferences and the record of emails sent. */
export class NotificationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The owner and members of a project or a repository, with their roles. */
  async audience(
    db: Executor,
    target: { projectId: string } | { repoId: string },
  ): Promise<Audience[]> {
    if ('projectId' in target) {
      const owner = await db
        .selectFrom('projects')
        .select('owner_id')
        .where('id', '=', target.projectId)
        .executeTakeFirst();
      const members = await db
        .selectFrom('project_members')
        .select(['user_id', 'role'])
        .where('project_id', '=', target.projectId)
        .execute();
      return [
        ...(owner ? [{ userId: owner.owner_id, role: 'owner' as const }] : []),
        ...members.map((m) => ({ userId: m.user_id, role: m.role })),
      ];
    }
    const owner = await db
      .selectFrom('repos')
      .select('owner_id')
      .where('id', '=', target.repoId)
      .executeTakeFirst();
    const members = await db
      .selectFrom('repo_members')
      .select(['user_id', 'role'])
      .where('repo_id', '=', target.repoId)
      .execute();
    return [
      ...(owner ? [{ userId: owner.owner_id, role: 'owner' as const }] : []),
      ...members.map((m) => ({ userId: m.user_id, role: m.role })),
    ];
  }

  /** The signed-in author of the comment a reply answers (null for a visitor's comment). */
  async parentCommentAuthor(db: Executor, replyId: string): Promise<string | null> {
    const row = await db
      .selectFrom('comments as reply')
      .innerJoin('comments as parent', 'parent.id', 'reply.parent_id')
      .select('parent.user_id')
      .where('reply.id', '=', replyId)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** Who uploaded a version: the actor of its 'version.uploaded' activity, if recorded. */
  async uploaderOf(db: Executor, versionId: string): Promise<string | null> {
    const row = await db
      .selectFrom('activity')
      .select('actor_id')
      .where('kind', '=', 'version.uploaded')
      .where('target_id', '=', versionId)
      .orderBy('created_at')
      .executeTakeFirst();
    return row?.actor_id ?? null;
  }

  /** The person who made a share link. */
  async linkOwner(db: Executor, linkId: string): Promise<string | null> {
    const row = await db
      .selectFrom('links')
      .select('owner_id')
      .where('id', '=', linkId)
      .executeTakeFirst();
    return row?.owner_id ?? null;
  }

  /** The channels these people chose for a category (people with no row have the default). */
  async channels(db: Executor, userIds: string[], category: string): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('notification_preferences')
      .select(['user_id', 'channel'])
      .where('user_id', 'in', userIds)
      .where('category', '=', category)
      .execute();
    return new Map(rows.map((r) => [r.user_id, r.channel]));
  }

  async preferences(userId: string): Promise<{ category: string; channel: string }[]> {
    return this.db
      .selectFrom('notification_preferences')
      .select(['category', 'channel'])
      .where('user_id', '=', userId)
      .execute();
  }

  async setPreference(
    db: Executor,
    userId: string,
    category: string,
    channel: string,
  ): Promise<void> {
    await db
      .insertInto('notification_preferences')
      .values({ user_id: userId, category, channel })
      .onConflict((oc) => oc.columns(['user_id', 'category']).doUpdateSet({ channel }))
      .execute();
  }

  /** Whether this person has notifications waiting for an email (a batch is then scheduled). */
  async hasPendingEmail(db: Executor, userId: string): Promise<boolean> {
    const row = await db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', userId)
      .where('email', '=', 1)
      .where('emailed_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(db: Executor, rows: NotificationsTable[]): Promise<void> {
    if (rows.length > 0) await db.insertInto('notifications').values(rows).execute();
  }

  /** A person's notifications, newest first, after the cursor (created_at, id). */
  async list(
    userId: string,
    options: { limit: number; unreadOnly: boolean; before?: { createdAt: string; id: string } },
  ): Promise<NotificationRow[]> {
    let query = selectNotifications(this.db).where('notifications.user_id', '=', userId);
    if (options.unreadOnly) query = query.where('notifications.read_at', 'is', null);
    const before = options.before;
    if (before)
      query = query.where((eb) =>
        eb.or([
          eb('notifications.created_at', '<', before.createdAt),
          eb.and([
            eb('notifications.created_at', '=', before.createdAt),
            eb('notifications.id', '<', before.id),
          ]),
        ]),
      );
    const rows = await query
      .orderBy('notifications.created_at', 'desc')
      .orderBy('notifications.id', 'desc')
      .limit(options.limit)
      .execute();
    return rows.map(toNotificationRow);
  }

  async unreadCount(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * A person's unread notifications of one project or repository (to match them against a page
   * being read).
   */
  async unread(
    userId: string,
    place: { projectId: string } | { repoId: string },
  ): Promise<NotificationRow[]> {
    let query = selectNotifications(this.db)
      .where('notifications.user_id', '=', userId)
      .where('notifications.read_at', 'is', null);
    query =
      'projectId' in place
        ? query.where('activity.project_id', '=', place.projectId)
        : query.where('activity.repo_id', '=', place.repoId);
    const rows = await query.execute();
    return rows.map(toNotificationRow);
  }

  /** Marks read: these ids (of this person only), or all of this person's. */
  async markRead(userId: string, ids: string[] | 'all', at: string): Promise<void> {
    if (ids !== 'all' && ids.length === 0) return;
    let query = this.db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (ids !== 'all') query = query.where('id', 'in', ids);
    await query.execute();
  }

  // ---- the email batch ----

  async recipient(userId: string): Promise<{ email: string; name: string } | undefined> {
    return this.db
      .selectFrom('users')
      .select(['email', 'name'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  async batchRecord(
    db: Executor,
    batchId: string,
  ): Promise<{ sent_at: string | null } | undefined> {
    return db
      .selectFrom('notification_emails')
      .select('sent_at')
      .where('id', '=', batchId)
      .executeTakeFirst();
  }

  /**
   * Claims a batch: writes its record (sent_at null) unless one exists. True when this call
   * wrote it (then this run, and only this run, may send it).
   */
  async claimBatch(db: Executor, batchId: string, userId: string, at: string): Promise<boolean> {
    const result = await db
      .insertInto('notification_emails')
      .values({ id: batchId, user_id: userId, sent_at: null, created_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async releaseBatch(db: Executor, batchId: string, notificationIds: string[]): Promise<void> {
    await db.deleteFrom('notification_emails').where('id', '=', batchId).execute();
    if (notificationIds.length > 0)
      await db
        .updateTable('notifications')
        .set({ emailed_at: null })
        .where('id', 'in', notificationIds)
        .execute();
  }

  async markBatchSent(batchId: string, at: string): Promise<void> {
    await this.db
      .updateTable('notification_emails')
      .set({ sent_at: at })
      .where('id', '=', batchId)
      .execute();
  }

  /** This person's notifications waiting for an email, oldest first, with their activity. */
  async pendingEmail(db: Executor, userId: string): Promise<NotificationRow[]> {
    const rows = await selectNotifications(db)
      .where('notifications.user_id', '=', userId)
      .where('notifications.email', '=', 1)
      .where('notifications.emailed_at', 'is', null)
      .orderBy('notifications.created_at')
      .orderBy('notifications.id')
      .execute();
    return rows.map(toNotificationRow);
  }

  async markEmailed(db: Executor, ids: string[], at: string): Promise<void> {
    if (ids.length > 0)
      await db
        .updateTable('notifications')
        .set({ emailed_at: at })
        .where('id', 'in', ids)
        .execute();
  }
}
