import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { projectRolesOf, repoRolesOf } from '../access';
import { BOUNCE_SONG_COLUMNS, VERSION_SONG_COLUMNS, type SongRow } from './subsonic.repo';

/** What a search asks for: its words (lower case) and a page. */
export interface SongSearch {
  words: string[];
  latestOnly: boolean;
  limit: number;
  offset: number;
  /** At random instead of newest first (`getRandomSongs`). */
  random?: boolean;
}

export interface SongPage {
  rows: SongRow[];
  /** How many songs the search finds in all, when the page ran past the end; else undefined. */
  total: number | undefined;
}

/** `column` holds `word` (lower case), case-insensitively on both databases. */
function contains(column: string, word: string) {
  const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`;
}

/** Searches of the library one person may read, a page at a time, in SQL. */
export class SubsonicSearchRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A page of the processed versions a search finds, newest first: those whose title's parts
   * (project name, message, a non-default branch's name, 'v3') hold every word (no words: all),
   * among the songs the albums show (the default branch, or the newest of each branch with
   * `latestOnly`). `total` is counted only when the page runs past the end.
   */
  async searchVersions(userId: string, search: SongSearch): Promise<SongPage> {
    let query = this.db
      .selectFrom('versions')
      .innerJoin(projectRolesOf(this.db, userId).as('r'), 'r.project_id', 'versions.project_id')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .where('versions.status', '=', 'completed');
    query = search.latestOnly
      ? query.where((eb) =>
          eb(
            'versions.version_number',
            '=',
            eb
              .selectFrom('versions as v2')
              .select((e) => e.fn.max('v2.version_number').as('n'))
              .whereRef('v2.branch_id', '=', 'versions.branch_id')
              .where('v2.status', '=', 'completed'),
          ),
        )
      : query.where('branches.is_default', '=', 1);
    for (const word of search.words)
      query = query.where(
        sql<boolean>`(${contains('projects.name', word)} or ${contains('versions.message', word)}
          or (branches.is_default = 0 and ${contains('branches.name', word)})
          or ('v' || versions.version_number) = ${word})`,
      );
    const rows = await query
      .select(VERSION_SONG_COLUMNS)
      .$if(search.random === true, (q) => q.orderBy(sql`random()`))
      .$if(search.random !== true, (q) =>
        q.orderBy('versions.created_at', 'desc').orderBy('versions.version_number', 'desc'),
      )
      .limit(search.limit)
      .offset(search.offset)
      .execute();
    if (rows.length >= search.limit) return { rows, total: undefined };
    const counted = await query
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(counted.n) };
  }

  /** The same for bounces: title, repository name, a non-default branch's name. */
  async searchBounces(userId: string, search: SongSearch): Promise<SongPage> {
    let query = this.db
      .selectFrom('bounces')
      .innerJoin(repoRolesOf(this.db, userId).as('r'), 'r.repo_id', 'bounces.repo_id')
      .innerJoin('repo_branches', 'repo_branches.id', 'bounces.branch_id')
      .innerJoin('repos', 'repos.id', 'bounces.repo_id')
      .where('bounces.status', '=', 'completed');
    if (search.latestOnly)
      query = query.where((eb) =>
        eb(
          'bounces.created_at',
          '=',
          eb
            .selectFrom('bounces as x2')
            .select((e) => e.fn.max('x2.created_at').as('t'))
            .whereRef('x2.branch_id', '=', 'bounces.branch_id')
            .whereRef('x2.title', '=', 'bounces.title')
            .where('x2.status', '=', 'completed'),
        ),
      );
    for (const word of search.words)
      query = query.where(
        sql<boolean>`(${contains('bounces.title', word)} or ${contains('repos.name', word)}
          or (repo_branches.is_default = 0 and ${contains('repo_branches.name', word)}))`,
      );
    const rows = await query
      .select(BOUNCE_SONG_COLUMNS)
      .$if(search.random === true, (q) => q.orderBy(sql`random()`))
      .$if(search.random !== true, (q) => q.orderBy('bounces.created_at', 'desc'))
      .limit(search.limit)
      .offset(search.offset)
      .execute();
    if (rows.length >= search.limit) return { rows, total: undefined };
    const counted = await query
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(counted.n) };
  }
}
