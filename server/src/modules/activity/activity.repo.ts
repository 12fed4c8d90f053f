import { sql, type Kysely } from 'kysely';
import type { ActivityTable, Database } from '../../db/schema';
import { projectRolesOf, repoRolesOf } from '../access/access-sql';
import { memberName } from '../people';

/** The database or a transaction on it. */
export type Executor = Kysely<Database>;

/**
 * Kinds recorded on a project for one person's notification only, never shown in its feed: a
 * collection link's first play (the collection is its owner's, not the project team's).
 */
export const PERSONAL_KINDS = ['collection_link.first_played'] as const;

/**
 * An activity row with what its actor line needs: the profile's name and avatar, the account's
 * name and address (the person presenter names them from these).
 */
export interface ActivityRow extends ActivityTable {
  display_name: string | null;
  user_name: string | null;
  user_email: string | null;
  avatar_key: string | null;
  profile_updated_at: string | null;
}

/** Where a page starts: strictly older than this row (newest first, ties broken by id). */
export interface ActivityCursor {
  createdAt: string;
  id: string;
}

/** A version as an activity line names it. */
export interface VersionFacts {
  version_id: string;
  version_number: number;
  project_id: string;
  branch_id: string;
  branch_name: string;
}

/** SQL for activity rows. */
export class ActivityRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ActivityTable, db: Executor): Promise<void> {
    await db.insertInto('activity').values(row).execute();
  }

  /** What a version's lines need: its number, its branch (id and name) and its project. */
  versionFacts(db: Executor, versionId: string): Promise<VersionFacts | undefined> {
    return db
      .selectFrom('versions')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .select([
        'versions.id as version_id',
        'versions.version_number',
        'versions.project_id',
        'versions.branch_id',
        'branches.name as branch_name',
      ])
      .where('versions.id', '=', versionId)
      .executeTakeFirst();
  }

  /** What the team calls a person now (their chosen name, else their address before the @). */
  async personName(db: Executor, userId: string): Promise<string | null> {
    const row = await db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select(['users.name as user_name', 'users.email', 'profiles.display_name'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    return row ? memberName(row) : null;
  }

  /** A project's or a repository's activity, newest first, `limit` rows older than `cursor`. */
  list(
    place: { projectId: string } | { repoId: string },
    cursor: ActivityCursor | null,
    limit: number,
  ): Promise<ActivityRow[]> {
    let query = this.db
      .selectFrom('activity')
      .leftJoin('profiles', 'profiles.user_id', 'activity.actor_id')
      .leftJoin('users', 'users.id', 'activity.actor_id')
      .selectAll('activity')
      .select([
        'profiles.display_name',
        'users.name as user_name',
        'users.email as user_email',
        'profiles.avatar_key',
        'profiles.updated_at as profile_updated_at',
      ]);
    query =
      'projectId' in place
        ? query.where('activity.project_id', '=', place.projectId)
        : query.where('activity.repo_id', '=', place.repoId);
    query = query.where('activity.kind', 'not in', PERSONAL_KINDS);
    if (cursor)
      query = query.where((eb) =>
        eb.or([
          eb('activity.created_at', '<', cursor.createdAt),
          eb.and([
            eb('activity.created_at', '=', cursor.createdAt),
            eb('activity.id', '<', cursor.id),
          ]),
        ]),
      );
    return query
      .orderBy('activity.created_at', 'desc')
      .orderBy('activity.id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * How many events happened since `since` on the projects and repositories a person can see.
   */
  async countVisibleSince(userId: string, since: string): Promise<number> {
    // One statement: each count walks its index (place, created_at) from `since`.
    const row = await sql<{ n: number | string }>`select
      (select count(*) from activity
        where project_id in (select project_id from ${projectRolesOf(this.db, userId)} as p)
        and created_at >= ${since} and kind <> ${PERSONAL_KINDS[0]})
      + (select count(*) from activity
        where repo_id in (select repo_id from ${repoRolesOf(this.db, userId)} as r)
        and created_at >= ${since} and kind <> ${PERSONAL_KINDS[0]}) as n`.execute(this.db);
    return Number(row.rows[0]?.n ?? 0);
  }
}
