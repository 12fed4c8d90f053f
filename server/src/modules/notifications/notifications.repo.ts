import type { Kysely } from 'kysely';
import type { ActivityTable, Database, MemberRole, NotificationsTable } from '../../db/schema';

/** The database or a transaction on it (the fan-out runs inside the recording transaction). */
export type Executor = Kysely<Database>;

/** Someone who can see a project or a repository: its owner, or a member with a role. */
export interface Audience {
  userId: string;
  role: 'owner' | MemberRole;
}

/** A notification with its activity row and what its line needs (names, places). */
export interface NotificationRow extends NotificationsTable {
  activity: ActivityTable;
}

/** What a readable line and a link need about an activity row's target and place. */
export interface ActivityContext {
  actorName: string | null;
  actorAvatarKey: string | null;
  actorProfileUpdatedAt: string | null;
  projectName: string | null;
  repoName: string | null;
  comment: { versionId: string; timestampSeconds: number | null; parentId: string | null } | null;
  version: {
    id: string;
    projectId: string;
    branchId: string;
    branchName: string | null;
    number: number;
  } | null;
  link: { name: string; versionId: string } | null;
  commitSha: string | null;
  memberName: string | null;
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

  private withActivity(db: Executor) {
    return db
      .selectFrom('notifications')
      .innerJoin('activity', 'activity.id', 'notifications.activity_id')
      .selectAll('notifications')
      .select([
        'activity.id as a_id',
        'activity.project_id as a_project_id',
        'activity.repo_id as a_repo_id',
        'activity.actor_id as a_actor_id',
        'activity.actor_name as a_actor_name',
        'activity.kind as a_kind',
        'activity.target_id as a_target_id',
        'activity.data as a_data',
        'activity.created_at as a_created_at',
      ]);
  }

  /** A person's notifications, newest first, after the cursor (created_at, id). */
  async list(
    userId: string,
    options: { limit: number; unreadOnly: boolean; before?: { createdAt: string; id: string } },
  ): Promise<NotificationRow[]> {
    let query = this.withActivity(this.db).where('notifications.user_id', '=', userId);
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
    let query = this.withActivity(this.db)
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

  /** What lines and links need about activity rows' actors, places and targets. */
  /**
   * What the readable lines of these activity rows need (names, the comment, the version), read
   * in a few queries for the whole page, one per kind of thing, not one set per row.
   */
  async contexts(
    rows: ActivityTable[],
    db: Executor = this.db,
  ): Promise<Map<string, ActivityContext>> {
    const targets = (test: (kind: string) => boolean) =>
      unique(rows.filter((r) => r.target_id && test(r.kind)).map((r) => r.target_id as string));
    const commentIds = targets((kind) => kind.startsWith('comment.'));
    const linkIds = targets((kind) => kind.startsWith('link.'));
    const commitRefs = targets((kind) => kind === 'repo.committed');
    const bounceIds = targets((kind) => kind === 'bounce.published');
    const memberIds = targets((kind) => kind.startsWith('member.'));
    const userIds = unique([...rows.map((r) => r.actor_id), ...memberIds]);
    const projectIds = unique(rows.map((r) => r.project_id));
    const repoIds = unique(rows.map((r) => r.repo_id));

    const [users, projects, repos, comments, links, commits, bounces] = await Promise.all([
      userIds.length
        ? db
            .selectFrom('users')
            .leftJoin('profiles', 'profiles.user_id', 'users.id')
            .select([
              'users.id',
              'users.name',
              'profiles.display_name',
              'profiles.avatar_key',
              'profiles.updated_at',
            ])
            .where('users.id', 'in', userIds)
            .execute()
        : [],
      projectIds.length
        ? db.selectFrom('projects').select(['id', 'name']).where('id', 'in', projectIds).execute()
        : [],
      repoIds.length
        ? db.selectFrom('repos').select(['id', 'name']).where('id', 'in', repoIds).execute()
        : [],
      commentIds.length
        ? db
            .selectFrom('comments')
            .select(['id', 'version_id', 'timestamp_seconds', 'parent_id'])
            .where('id', 'in', commentIds)
            .execute()
        : [],
      linkIds.length
        ? db
            .selectFrom('links')
            .select(['id', 'name', 'version_id'])
            .where('id', 'in', linkIds)
            .execute()
        : [],
      commitRefs.length
        ? db
            .selectFrom('repo_commits')
            .select(['id', 'sha'])
            .where((eb) => eb.or([eb('id', 'in', commitRefs), eb('sha', 'in', commitRefs)]))
            .execute()
        : [],
      bounceIds.length
        ? db
            .selectFrom('bounces')
            .innerJoin('repo_commits', 'repo_commits.id', 'bounces.commit_id')
            .select(['bounces.id', 'repo_commits.sha'])
            .where('bounces.id', 'in', bounceIds)
            .execute()
        : [],
    ]);
    const userById = byId(users);
    const commentById = byId(comments);
    const linkById = byId(links);
    const versionIdOf = (row: ActivityTable): string | null => {
      const target = row.target_id;
      if (!target) return null;
      if (row.kind.startsWith('comment.')) return commentById.get(target)?.version_id ?? null;
      if (row.kind.startsWith('version.')) return target;
      if (row.kind.startsWith('link.')) return linkById.get(target)?.version_id ?? null;
      return null;
    };
    const versionIds = unique(rows.map(versionIdOf));
    const versions = versionIds.length
      ? await db
          .selectFrom('versions')
          .leftJoin('branches', 'branches.id', 'versions.branch_id')
          .select([
            'versions.id',
            'versions.project_id',
            'versions.branch_id',
            'versions.version_number',
            'branches.name as branch_name',
          ])
          .where('versions.id', 'in', versionIds)
          .execute()
      : [];
    const versionById = byId(versions);
    const projectName = new Map(projects.map((p) => [p.id, p.name]));
    const repoName = new Map(repos.map((r) => [r.id, r.name]));
    const shaOf = (ref: string) => commits.find((c) => c.id === ref || c.sha === ref)?.sha ?? null;
    const bounceSha = new Map(bounces.map((b) => [b.id, b.sha]));

    const result = new Map<string, ActivityContext>();
    for (const row of rows) {
      const target = row.target_id;
      const actor = row.actor_id ? userById.get(row.actor_id) : undefined;
      const c = target && row.kind.startsWith('comment.') ? commentById.get(target) : undefined;
      const l = target && row.kind.startsWith('link.') ? linkById.get(target) : undefined;
      const member = target && row.kind.startsWith('member.') ? userById.get(target) : undefined;
      const versionId = versionIdOf(row);
      const version = versionId ? versionById.get(versionId) : undefined;
      result.set(row.id, {
        actorName: actor ? actor.display_name || actor.name : null,
        actorAvatarKey: actor?.avatar_key ?? null,
        actorProfileUpdatedAt: actor?.updated_at ?? null,
        projectName: (row.project_id && projectName.get(row.project_id)) ?? null,
        repoName: (row.repo_id && repoName.get(row.repo_id)) ?? null,
        comment: c
          ? {
              versionId: c.version_id,
              timestampSeconds: c.timestamp_seconds,
              parentId: c.parent_id,
            }
          : null,
        version: version
          ? {
              id: version.id,
              projectId: version.project_id,
              branchId: version.branch_id,
              branchName: version.branch_name,
              number: Number(version.version_number),
            }
          : null,
        link: l ? { name: l.name, versionId: l.version_id } : null,
        commitSha:
          target && row.kind === 'repo.committed'
            ? shaOf(target)
            : target && row.kind === 'bounce.published'
              ? (bounceSha.get(target) ?? null)
              : null,
        memberName: member ? member.display_name || member.name : null,
      });
    }
    return result;
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
    const rows = await this.withActivity(db)
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

function toNotificationRow(r: {
  id: string;
  user_id: string;
  activity_id: string;
  category: string;
  email: number;
  read_at: string | null;
  emailed_at: string | null;
  created_at: string;
  a_id: string;
  a_project_id: string | null;
  a_repo_id: string | null;
  a_actor_id: string | null;
  a_actor_name: string | null;
  a_kind: string;
  a_target_id: string | null;
  a_data: string;
  a_created_at: string;
}): NotificationRow {
  return {
    id: r.id,
    user_id: r.user_id,
    activity_id: r.activity_id,
    category: r.category,
    email: Number(r.email),
    read_at: r.read_at,
    emailed_at: r.emailed_at,
    created_at: r.created_at,
    activity: {
      id: r.a_id,
      project_id: r.a_project_id,
      repo_id: r.a_repo_id,
      actor_id: r.a_actor_id,
      actor_name: r.a_actor_name,
      kind: r.a_kind,
      target_id: r.a_target_id,
      data: r.a_data,
      created_at: r.a_created_at,
    },
  };
}

function unique(values: readonly (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => Boolean(v)))];
}

function byId<T extends { id: string }>(rows: readonly T[]): Map<string, T> {
  return new Map(rows.map((row) => [row.id, row]));
}
