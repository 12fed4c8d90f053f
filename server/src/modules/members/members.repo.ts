import { sql, type Kysely } from 'kysely';
import type { Database, InvitationsTable, MemberRole, ProjectRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';

/** A project, a repository or a collection: what members and invitations belong to. */
export type TargetKind = 'project' | 'repository' | 'collection';
export interface Target {
  kind: TargetKind;
  id: string;
}

/** A person on a target's member list, with what their line in the list needs. */
export interface PersonRow {
  user_id: string;
  email: string;
  user_name: string | null;
  display_name: string | null;
  avatar_key: string | null;
  profile_updated_at: string | null;
  /** The member row's role; null for the owner. */
  role: MemberRole | null;
  /** When they joined: the member row's creation, the target's creation for the owner. */
  joined_at: string;
}

/** An invitation with what its link page and email need. */
export interface InvitationRow extends InvitationsTable {
  target_name: string;
  inviter_email: string | null;
  inviter_user_name: string | null;
  inviter_display_name: string | null;
}

/** The project as the projects module answers it: the row and its branches with counts. */
export interface ProjectViewRow {
  project: ProjectRow;
  branches: {
    id: string;
    project_id: string;
    name: string;
    is_default: number;
    version_count: number;
  }[];
}

/** A repository with the figures its API shape carries (as the repos module reads them). */
export interface RepoViewRow {
  id: string;
  owner_id: string;
  name: string;
  name_key: string;
  cover_key: string | null;
  cover_type: string | null;
  created_at: string;
  updated_at: string;
  activity_at: string;
  commit_count: number | null;
  legacy_count: number | null;
  bounce_count: number | null;
  default_branch: string | null;
}

export type TransferOutcome = 'done' | 'not-owner' | 'not-editor' | 'name-taken';

/** Rolls a transaction back with an outcome to report. */
class Abort extends Error {
  constructor(readonly outcome: TransferOutcome) {
    super(outcome);
  }
}

/** Each kind's member table, the column naming the target there and in invitations, and the target's own table. */
const PLACES = {
  project: { members: 'project_members', column: 'project_id', parent: 'projects' },
  repository: { members: 'repo_members', column: 'repo_id', parent: 'repos' },
  collection: { members: 'collection_members', column: 'collection_id', parent: 'collections' },
} as const;

/**
 * Where a target's members are. The three member tables have one shape (target column, user_id,
 * role, created_at) and the three targets have `id`, `name` and `created_at`: queries are typed
 * against the project's tables and run on the target's own.
 */
function placeOf(kind: TargetKind) {
  const place = PLACES[kind];
  return {
    members: place.members as 'project_members',
    column: place.column as 'project_id',
    parent: place.parent as 'projects',
  };
}

const targetColumn = (kind: TargetKind) => PLACES[kind].column;

/**
 * SQL for members, invitations and ownership transfer. Who may call these is the service's
 * business (through the access policy); these only read and write rows.
 */
export class MembersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Runs `work` in the caller's transaction when given, else in a new one. */
  private inTransaction<T>(
    db: Kysely<Database> | undefined,
    work: (trx: Kysely<Database>) => Promise<T>,
  ): Promise<T> {
    return db ? work(db) : this.transaction(work);
  }

  // ---- people ----

  /**
   * The owner (first; the access policy names them) and the members by the date they joined.
   * The owner joined when the target was made.
   */
  async people(target: Target, ownerId: string): Promise<PersonRow[]> {
    const created = await this.db
      .selectFrom(placeOf(target.kind).parent)
      .select('created_at')
      .where('id', '=', target.id)
      .executeTakeFirst();
    if (!created) return [];
    const owner = await this.withPeople([
      { user_id: ownerId, role: null, joined_at: created.created_at },
    ]);
    return [...owner, ...(await this.memberRows(target))];
  }

  /** One member (not the owner) with their list line; undefined when not a member. */
  async member(target: Target, userId: string): Promise<PersonRow | undefined> {
    return (await this.memberRows(target, userId))[0];
  }

  private async memberRows(target: Target, userId?: string): Promise<PersonRow[]> {
    const { members, column } = placeOf(target.kind);
    const rows = await this.db
      .selectFrom(members)
      .select(['user_id', 'role', 'created_at as joined_at'])
      .where(column, '=', target.id)
      .$if(userId !== undefined, (q) => q.where('user_id', '=', userId ?? ''))
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
    return this.withPeople(rows);
  }

  /** Adds each person's email, names and avatar (kept in the given order). */
  private async withPeople(
    rows: { user_id: string; role: MemberRole | null; joined_at: string }[],
  ): Promise<PersonRow[]> {
    if (rows.length === 0) return [];
    const users = await this.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select([
        'users.id',
        'users.email',
        'users.name as user_name',
        'profiles.display_name',
        'profiles.avatar_key',
        'profiles.updated_at as profile_updated_at',
      ])
      .where(
        'users.id',
        'in',
        rows.map((r) => r.user_id),
      )
      .execute();
    const byId = new Map(users.map((u) => [u.id, u]));
    return rows.flatMap((row) => {
      const user = byId.get(row.user_id);
      if (!user) return [];
      return [
        {
          user_id: row.user_id,
          email: user.email,
          user_name: user.user_name,
          display_name: user.display_name,
          avatar_key: user.avatar_key,
          profile_updated_at: user.profile_updated_at,
          role: row.role,
          joined_at: row.joined_at,
        },
      ];
    });
  }

  /** The accounts with this (lower-case) email address. */
  async usersWithEmail(email: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where(sql<string>`lower(users.email)`, '=', email)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Whether any of these people is a member (below the owner) of the target. */
  async anyMember(target: Target, userIds: string[]): Promise<boolean> {
    if (userIds.length === 0) return false;
    const { members, column } = placeOf(target.kind);
    const member = await this.db
      .selectFrom(members)
      .select('user_id')
      .where(column, '=', target.id)
      .where('user_id', 'in', userIds)
      .executeTakeFirst();
    return member !== undefined;
  }

  /** How an inviter is named: their display name, else their account name, else their email. */
  async person(
    userId: string,
  ): Promise<{ email: string; user_name: string | null; display_name: string | null } | undefined> {
    return this.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select(['users.email', 'users.name as user_name', 'profiles.display_name'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
  }

  async targetName(target: Target): Promise<string | undefined> {
    const row = await this.db
      .selectFrom(placeOf(target.kind).parent)
      .select('name')
      .where('id', '=', target.id)
      .executeTakeFirst();
    return row?.name;
  }

  // ---- roles ----

  /** Sets a member's role; false when they are not a member (the owner never is). */
  async setRole(
    target: Target,
    userId: string,
    role: MemberRole,
    db: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const { members, column } = placeOf(target.kind);
    const result = await db
      .updateTable(members)
      .set({ role })
      .where(column, '=', target.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A member's role (null when they are not a member). */
  async roleOf(
    target: Target,
    userId: string,
    db: Kysely<Database> = this.db,
  ): Promise<MemberRole | null> {
    const { members, column } = placeOf(target.kind);
    const row = await db
      .selectFrom(members)
      .select('role')
      .where(column, '=', target.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  /**
   * Removes a member and, in the same transaction, revokes the pending invitations to the target
   * for their email address. False when they were not a member.
   */
  async removeMember(
    target: Target,
    userId: string,
    now: string,
    db?: Kysely<Database>,
  ): Promise<boolean> {
    return this.inTransaction(db, async (trx) => {
      if (!(await this.leave(target, userId, trx))) return false;
      const user = await trx
        .selectFrom('users')
        .select('email')
        .where('id', '=', userId)
        .executeTakeFirst();
      if (user) {
        await trx
          .updateTable('invitations')
          .set({ revoked_at: now })
          .where(targetColumn(target.kind), '=', target.id)
          .where('email', '=', user.email.toLowerCase())
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .execute();
      }
      return true;
    });
  }

  // ---- share links the members made ----

  /**
   * How many live share links (not revoked, not expired) each person made in the target. Only a
   * project has them: a repository has no share links, and a collection's links are its owner's.
   */
  async liveLinksMade(target: Target, now: string): Promise<Map<string, number>> {
    if (target.kind !== 'project') return new Map();
    const rows = await liveLinks(this.db, target.id, now)
      .select((eb) => ['owner_id', eb.fn.countAll<number | string>().as('n')])
      .groupBy('owner_id')
      .execute();
    return new Map(rows.map((r) => [r.owner_id, Number(r.n)]));
  }

  /**
   * Revokes the live share links `userId` made in the target (a project's; nothing elsewhere),
   * in the caller's transaction; answers the links revoked, oldest first.
   */
  async revokeLinksMade(
    target: Target,
    userId: string,
    now: string,
    db: Kysely<Database>,
  ): Promise<{ id: string; name: string; version_id: string }[]> {
    if (target.kind !== 'project') return [];
    const links = await liveLinks(db, target.id, now)
      .select(['id', 'name', 'version_id'])
      .where('owner_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (links.length === 0) return [];
    // Only those still live: a link revoked by a racing request is not reported twice.
    const revoked = await db
      .updateTable('links')
      .set({ revoked_at: now })
      .where(
        'id',
        'in',
        links.map((l) => l.id),
      )
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    const done = new Set(revoked.map((r) => r.id));
    return links.filter((l) => done.has(l.id));
  }

  // ---- invitations ----

  /** Pending: not accepted, not revoked, not expired; oldest first. */
  pendingInvitations(target: Target, now: string): Promise<InvitationsTable[]> {
    return this.db
      .selectFrom('invitations')
      .selectAll()
      .where(targetColumn(target.kind), '=', target.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async countPending(target: Target, now: string): Promise<number> {
    const row = await this.db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(targetColumn(target.kind), '=', target.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  findPendingFor(
    target: Target,
    email: string,
    now: string,
  ): Promise<InvitationsTable | undefined> {
    return this.db
      .selectFrom('invitations')
      .selectAll()
      .where(targetColumn(target.kind), '=', target.id)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async insertInvitation(row: InvitationsTable): Promise<void> {
    await this.db.insertInto('invitations').values(row).execute();
  }

  /** Takes back an invitation whose email could not be sent. */
  async deleteInvitation(id: string): Promise<void> {
    await this.db.deleteFrom('invitations').where('id', '=', id).execute();
  }

  findInvitation(id: string): Promise<InvitationsTable | undefined> {
    return this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The invitation a link's token hash opens, with its target's name and its inviter. */
  findByTokenHash(tokenHash: string): Promise<InvitationRow | undefined> {
    return this.db
      .selectFrom('invitations')
      .leftJoin('projects', 'projects.id', 'invitations.project_id')
      .leftJoin('repos', 'repos.id', 'invitations.repo_id')
      .leftJoin('collections', 'collections.id', 'invitations.collection_id')
      .leftJoin('users as inviter', 'inviter.id', 'invitations.inviter_id')
      .leftJoin('profiles as inviter_profile', 'inviter_profile.user_id', 'invitations.inviter_id')
      .selectAll('invitations')
      .select([
        sql<string>`coalesce(projects.name, repos.name, collections.name)`.as('target_name'),
        'inviter.email as inviter_email',
        'inviter.name as inviter_user_name',
        'inviter_profile.display_name as inviter_display_name',
      ])
      .where('invitations.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** A new link for a pending invitation: the old token stops working at once. */
  async replaceToken(
    id: string,
    next: Pick<InvitationsTable, 'token_hash' | 'sent_at' | 'expires_at'>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('invitations')
      .set(next)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Puts back the link an unsent resend replaced. */
  async restoreToken(
    id: string,
    previous: Pick<InvitationsTable, 'token_hash' | 'sent_at' | 'expires_at'>,
  ): Promise<void> {
    await this.db.updateTable('invitations').set(previous).where('id', '=', id).execute();
  }

  async revokeInvitation(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Uses the invitation and gives its role, in one transaction: the invitation is marked
   * accepted only while it is still pending (so two racing accepts cannot both win), then the
   * person becomes a member with the invited role (replacing a role they had). The owner (as the
   * access policy found them) stays the owner and gets no member row. False when the invitation
   * was no longer valid.
   */
  acceptInvitation(
    invitation: InvitationsTable,
    userId: string,
    options: { isOwner: boolean; now: string },
    db?: Kysely<Database>,
  ): Promise<boolean> {
    const { now } = options;
    return this.inTransaction(db, async (trx) => {
      const used = await trx
        .updateTable('invitations')
        .set({ accepted_at: now, accepted_by: userId })
        .where('id', '=', invitation.id)
        .where('token_hash', '=', invitation.token_hash)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) === 0) return false;
      if (options.isOwner) return true;
      const role = invitation.role;
      const target = invitationTarget(invitation);
      if (!target) return false;
      const { members, column } = placeOf(target.kind);
      await trx
        .insertInto(members)
        // `column` is typed as the project's; it names the target's own column.
        .values({ [column]: target.id, user_id: userId, role, created_at: now })
        .onConflict((oc) => oc.columns([column, 'user_id']).doUpdateSet({ role }))
        .execute();
      return true;
    });
  }

  // ---- leaving and ownership ----

  /** Deletes the caller's own member row. */
  async leave(target: Target, userId: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const { members, column } = placeOf(target.kind);
    const result = await db
      .deleteFrom(members)
      .where(column, '=', target.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Hands the target from its owner to one of its editors, in one transaction: the editor's
   * member row goes, `owner_id` becomes theirs (only while `from` still owns it), and the old owner
   * becomes an editor. A repository whose name the new owner already uses is refused.
   */
  async transfer(target: Target, from: string, to: string, now: string): Promise<TransferOutcome> {
    // A collection's ownership is not handed over.
    if (target.kind === 'collection') return 'not-owner';
    try {
      await this.db.transaction().execute(async (trx) => {
        if (target.kind === 'project') {
          const demoted = await trx
            .deleteFrom('project_members')
            .where('project_id', '=', target.id)
            .where('user_id', '=', to)
            .where('role', '=', 'editor')
            .executeTakeFirst();
          if (Number(demoted.numDeletedRows) === 0) throw new Abort('not-editor');
          const moved = await trx
            .updateTable('projects')
            .set({ owner_id: to, updated_at: now })
            .where('id', '=', target.id)
            .where('owner_id', '=', from)
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) === 0) throw new Abort('not-owner');
          await trx
            .insertInto('project_members')
            .values({ project_id: target.id, user_id: from, role: 'editor', created_at: now })
            .execute();
          return;
        }
        const repo = await trx
          .selectFrom('repos')
          .select('name_key')
          .where('id', '=', target.id)
          .where('owner_id', '=', from)
          .executeTakeFirst();
        if (!repo) throw new Abort('not-owner');
        const demoted = await trx
          .deleteFrom('repo_members')
          .where('repo_id', '=', target.id)
          .where('user_id', '=', to)
          .where('role', '=', 'editor')
          .executeTakeFirst();
        if (Number(demoted.numDeletedRows) === 0) throw new Abort('not-editor');
        const clash = await trx
          .selectFrom('repos')
          .select('id')
          .where('owner_id', '=', to)
          .where('name_key', '=', repo.name_key)
          .executeTakeFirst();
        if (clash) throw new Abort('name-taken');
        const moved = await trx
          .updateTable('repos')
          .set({ owner_id: to, updated_at: now })
          .where('id', '=', target.id)
          .where('owner_id', '=', from)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) throw new Abort('not-owner');
        await trx
          .insertInto('repo_members')
          .values({ repo_id: target.id, user_id: from, role: 'editor', created_at: now })
          .execute();
      });
      return 'done';
    } catch (error) {
      if (error instanceof Abort) return error.outcome;
      // The new owner made a repository with this name at the same moment.
      if (target.kind === 'repository' && isUniqueViolation(error)) return 'name-taken';
      throw error;
    }
  }

  // ---- the shapes a transfer answers ----

  async projectView(projectId: string): Promise<ProjectViewRow | undefined> {
    const project = await this.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirst();
    if (!project) return undefined;
    const branches = await this.db
      .selectFrom('branches')
      .select(['id', 'project_id', 'name', 'is_default', 'version_count'])
      .where('project_id', '=', projectId)
      .orderBy('is_default', 'desc')
      .orderBy('name')
      .execute();
    return { project, branches };
  }

  repoView(repoId: string): Promise<RepoViewRow | undefined> {
    return this.db
      .selectFrom('repos as r')
      .selectAll('r')
      .select((eb) => [
        eb
          .selectFrom('repo_commits as c')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('c.repo_id', '=', 'r.id')
          .as('commit_count'),
        eb
          .selectFrom('repo_patches as p')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('p.repo_id', '=', 'r.id')
          .as('legacy_count'),
        eb
          .selectFrom('bounces as x')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('x.repo_id', '=', 'r.id')
          .as('bounce_count'),
        eb
          .selectFrom('repo_branches as b')
          .select('b.name')
          .whereRef('b.repo_id', '=', 'r.id')
          .where('b.is_default', '=', 1)
          .as('default_branch'),
      ])
      .where('r.id', '=', repoId)
      .executeTakeFirst();
  }
}

/** A project's share links that still open: not revoked, not expired. */
function liveLinks(db: Kysely<Database>, projectId: string, now: string) {
  return db
    .selectFrom('links')
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}

/** What an invitation opens: the one of its three target columns that is set. */
export function invitationTarget(
  invitation: Pick<InvitationsTable, 'project_id' | 'repo_id' | 'collection_id'>,
): Target | undefined {
  if (invitation.project_id) return { kind: 'project', id: invitation.project_id };
  if (invitation.repo_id) return { kind: 'repository', id: invitation.repo_id };
  if (invitation.collection_id) return { kind: 'collection', id: invitation.collection_id };
  return undefined;
}
