import type { Kysely } from 'kysely';
import type { Database, MemberRole } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { placeOf, targetColumn, type Target } from './member-targets';

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

export type TransferOutcome = 'done' | 'not-owner' | 'not-editor' | 'name-taken';

/** Rolls a transaction back with an outcome to report. */
class Abort extends Error {
  constructor(readonly outcome: TransferOutcome) {
    super(outcome);
  }
}

/**
 * SQL for members of projects, repositories and collections: the list, roles, removal, leaving
 * and ownership transfer (invitations: `InvitationsRepo`). Who may call these is the service's
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
    const { members, column, parent } = placeOf(target.kind);
    try {
      await this.db.transaction().execute(async (trx) => {
        const demoted = await trx
          .deleteFrom(members)
          .where(column, '=', target.id)
          .where('user_id', '=', to)
          .where('role', '=', 'editor')
          .executeTakeFirst();
        if (Number(demoted.numDeletedRows) === 0) throw new Abort('not-editor');
        if (target.kind === 'repository' && (await repoNameTaken(trx, target.id, to)))
          throw new Abort('name-taken');
        const moved = await trx
          .updateTable(parent)
          .set({ owner_id: to, updated_at: now })
          .where('id', '=', target.id)
          .where('owner_id', '=', from)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) throw new Abort('not-owner');
        await trx
          .insertInto(members)
          // `column` is typed as the project's; it names the target's own column.
          .values({ [column]: target.id, user_id: from, role: 'editor', created_at: now })
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
}

/** A project's share links that still open: not revoked, not expired. */
function liveLinks(db: Kysely<Database>, projectId: string, now: string) {
  return db
    .selectFrom('links')
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}

/** Whether `owner` already owns another repository named like this one (names are per owner). */
async function repoNameTaken(
  db: Kysely<Database>,
  repoId: string,
  owner: string,
): Promise<boolean> {
  const clash = await db
    .selectFrom('repos as other')
    .innerJoin('repos as this', 'this.name_key', 'other.name_key')
    .select('other.id')
    .where('this.id', '=', repoId)
    .where('other.owner_id', '=', owner)
    .where('other.id', '!=', repoId)
    .executeTakeFirst();
  return clash !== undefined;
}
