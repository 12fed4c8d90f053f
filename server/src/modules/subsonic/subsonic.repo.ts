import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect-sql';
import type { Database } from '../../db/schema';
import { projectRolesOf, repoRolesOf } from '../access';

/** The owner's name parts, for `memberName`. */
interface OwnerParts {
  owner_id: string;
  owner_user_name: string;
  owner_email: string;
  owner_display_name: string | null;
}

export interface AlbumRow extends OwnerParts {
  id: string;
  name: string;
  created_at: string;
  cover_key: string | null;
  cover_type: string | null;
}

/** A song: a processed version of a project, or a processed bounce of a repository. */
export interface SongRow {
  id: string;
  album_id: string;
  /** A version's number; null for a bounce. */
  version_number: number | null;
  /** A version's message, or a bounce's title. */
  text: string | null;
  branch_id: string;
  branch_name: string;
  is_default: number;
  metadata: string | null;
  renditions: string;
  original_format: string | null;
  original_size: number | null;
  created_at: string;
}

/** An album's songs counted in SQL, for the lists (no song is read). */
export interface AlbumStats {
  count: number;
  /** Whole seconds: the sum of each song's rounded length. */
  duration: number;
  newest: string;
}

/** A version as a song (a SongRow): with `branches` joined. */
export const VERSION_SONG_COLUMNS = [
  'versions.id',
  'versions.project_id as album_id',
  'versions.version_number',
  'versions.message as text',
  'versions.branch_id',
  'branches.name as branch_name',
  'branches.is_default',
  'versions.metadata',
  'versions.renditions',
  'versions.original_format',
  'versions.original_size',
  'versions.created_at',
] as const;

/** A bounce as a song (a SongRow): with `repo_branches` joined; bounces have no number. */
export const BOUNCE_SONG_COLUMNS = [
  'bounces.id',
  'bounces.repo_id as album_id',
  sql<number | null>`null`.as('version_number'),
  'bounces.title as text',
  'bounces.branch_id',
  'repo_branches.name as branch_name',
  'repo_branches.is_default',
  'bounces.metadata',
  'bounces.renditions',
  'bounces.original_format',
  'bounces.original_size',
  'bounces.created_at',
] as const;

/** The library as one person may read it: projects and repositories through the access SQL. */
export class SubsonicRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** A song's rounded length from its stored metadata JSON, in this database's SQL. */
  private seconds(column: string) {
    return dialectOf(this.db as unknown as Kysely<unknown>) === 'postgres'
      ? sql<number>`coalesce(round((${sql.ref(column)}::json->>'duration')::float8), 0)`
      : sql<number>`coalesce(round(json_extract(${sql.ref(column)}, '$.duration')), 0)`;
  }

  /**
   * Per project the person may hear: how many songs its album shows, their length and the newest
   * one's time (the default branch's processed versions, or with `latestOnly` the newest of each
   * branch), counted by the database.
   */
  async projectStats(userId: string, latestOnly: boolean): Promise<Map<string, AlbumStats>> {
    const rows = await this.db
      .selectFrom('versions as v')
      .innerJoin(projectRolesOf(this.db, userId).as('r'), 'r.project_id', 'v.project_id')
      .innerJoin('branches as b', 'b.id', 'v.branch_id')
      .select((eb) => [
        'v.project_id as album_id',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>(this.seconds('v.metadata')).as('duration'),
        eb.fn.max('v.created_at').as('newest'),
      ])
      .where('v.status', '=', 'completed')
      .$if(!latestOnly, (q) => q.where('b.is_default', '=', 1))
      .$if(latestOnly, (q) =>
        q.where((eb) =>
          eb(
            'v.version_number',
            '=',
            eb
              .selectFrom('versions as v2')
              .select((e) => e.fn.max('v2.version_number').as('n'))
              .whereRef('v2.branch_id', '=', 'v.branch_id')
              .where('v2.status', '=', 'completed'),
          ),
        ),
      )
      .groupBy('v.project_id')
      .execute();
    return statsMap(rows);
  }

  /** Per repository the person may hear: its bounces (or the newest per branch and title). */
  async repoStats(userId: string, latestOnly: boolean): Promise<Map<string, AlbumStats>> {
    const rows = await this.db
      .selectFrom('bounces as x')
      .innerJoin(repoRolesOf(this.db, userId).as('r'), 'r.repo_id', 'x.repo_id')
      .select((eb) => [
        'x.repo_id as album_id',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>(this.seconds('x.metadata')).as('duration'),
        eb.fn.max('x.created_at').as('newest'),
      ])
      .where('x.status', '=', 'completed')
      .$if(latestOnly, (q) =>
        q.where((eb) =>
          eb(
            'x.created_at',
            '=',
            eb
              .selectFrom('bounces as x2')
              .select((e) => e.fn.max('x2.created_at').as('t'))
              .whereRef('x2.branch_id', '=', 'x.branch_id')
              .whereRef('x2.title', '=', 'x.title')
              .where('x2.status', '=', 'completed'),
          ),
        ),
      )
      .groupBy('x.repo_id')
      .execute();
    return statsMap(rows);
  }

  /** Projects the person may listen to (any role listens), with their owner's name parts. */
  projectAlbums(userId: string, projectId?: string): Promise<AlbumRow[]> {
    return this.db
      .selectFrom('projects')
      .innerJoin(projectRolesOf(this.db, userId).as('r'), 'r.project_id', 'projects.id')
      .innerJoin('users', 'users.id', 'projects.owner_id')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select([
        'projects.id',
        'projects.name',
        'projects.created_at',
        'projects.owner_id',
        'users.name as owner_user_name',
        'users.email as owner_email',
        'profiles.display_name as owner_display_name',
      ])
      .select([sql<string | null>`null`.as('cover_key'), sql<string | null>`null`.as('cover_type')])
      .$if(projectId !== undefined, (q) => q.where('projects.id', '=', projectId as string))
      .execute();
  }

  /** Repositories the person may listen to, with their cover. */
  repoAlbums(userId: string, repoId?: string): Promise<AlbumRow[]> {
    return this.db
      .selectFrom('repos')
      .innerJoin(repoRolesOf(this.db, userId).as('r'), 'r.repo_id', 'repos.id')
      .innerJoin('users', 'users.id', 'repos.owner_id')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select([
        'repos.id',
        'repos.name',
        'repos.created_at',
        'repos.cover_key',
        'repos.cover_type',
        'repos.owner_id',
        'users.name as owner_user_name',
        'users.email as owner_email',
        'profiles.display_name as owner_display_name',
      ])
      .$if(repoId !== undefined, (q) => q.where('repos.id', '=', repoId as string))
      .execute();
  }

  /** Processed versions of the person's readable projects (or one project), newest first. */
  versionSongs(userId: string, projectId?: string): Promise<SongRow[]> {
    return this.db
      .selectFrom('versions')
      .innerJoin(projectRolesOf(this.db, userId).as('r'), 'r.project_id', 'versions.project_id')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .select(VERSION_SONG_COLUMNS)
      .where('versions.status', '=', 'completed')
      .$if(projectId !== undefined, (q) => q.where('versions.project_id', '=', projectId as string))
      .orderBy('versions.created_at', 'desc')
      .orderBy('versions.version_number', 'desc')
      .execute();
  }

  /** Processed bounces of the person's readable repositories (or one), newest first. */
  bounceSongs(userId: string, repoId?: string): Promise<SongRow[]> {
    return this.db
      .selectFrom('bounces')
      .innerJoin(repoRolesOf(this.db, userId).as('r'), 'r.repo_id', 'bounces.repo_id')
      .innerJoin('repo_branches', 'repo_branches.id', 'bounces.branch_id')
      .select(BOUNCE_SONG_COLUMNS)
      .where('bounces.status', '=', 'completed')
      .$if(repoId !== undefined, (q) => q.where('bounces.repo_id', '=', repoId as string))
      .orderBy('bounces.created_at', 'desc')
      .execute();
  }

  /** The album a version or a bounce belongs to (no access check: the caller made it). */
  async albumOfVersion(versionId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('versions')
      .select('project_id')
      .where('id', '=', versionId)
      .executeTakeFirst();
    return row?.project_id;
  }

  async albumOfBounce(bounceId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('bounces')
      .select('repo_id')
      .where('id', '=', bounceId)
      .executeTakeFirst();
    return row?.repo_id;
  }

  /** The person's plays per album: how many, and the last. */
  async playsByAlbum(userId: string): Promise<Map<string, { count: number; last: string }>> {
    const rows = await this.db
      .selectFrom('player_plays')
      .select((eb) => [
        eb.fn.coalesce('project_id', 'repo_id').as('album_id'),
        eb.fn.countAll<number>().as('count'),
        eb.fn.max('played_at').as('last'),
      ])
      .where('user_id', '=', userId)
      .groupBy(['project_id', 'repo_id'])
      .execute();
    const plays = new Map<string, { count: number; last: string }>();
    for (const row of rows)
      if (row.album_id)
        plays.set(row.album_id, { count: Number(row.count), last: String(row.last) });
    return plays;
  }

  /** The person's plays per song. */
  async playsBySong(userId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('player_plays')
      .select((eb) => [
        eb.fn.coalesce('version_id', 'bounce_id').as('song_id'),
        eb.fn.countAll<number>().as('count'),
      ])
      .where('user_id', '=', userId)
      .groupBy(['version_id', 'bounce_id'])
      .execute();
    const plays = new Map<string, number>();
    for (const row of rows) if (row.song_id) plays.set(row.song_id, Number(row.count));
    return plays;
  }
}

function statsMap(
  rows: {
    album_id: string;
    count: number | string;
    duration: number | string | null;
    newest: unknown;
  }[],
): Map<string, AlbumStats> {
  return new Map(
    rows.map((row) => [
      row.album_id,
      { count: Number(row.count), duration: Number(row.duration ?? 0), newest: String(row.newest) },
    ]),
  );
}
