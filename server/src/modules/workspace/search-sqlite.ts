import { sql, type Kysely, type RawBuilder } from 'kysely';
import { CompiledOnce } from '../../db/compiled-once';
import type { Database } from '../../db/schema';
import { readableProject } from '../access';
import {
  likePattern,
  OWN_PROJECTS_AT_MOST,
  OWN_ROWS_AT_MOST,
  sortHits,
  type SearchHits,
  type VersionHit,
} from './search-hits';

/**
 * The readable projects: the access module's rule (owner or member) as a list of ids for an
 * `in`, read from the owner index and the person's memberships.
 */
const readableIds = (u: string) =>
  sql`(select id from projects where owner_id = ${u}
    union all select project_id from project_members where user_id = ${u})`;

/**
 * A version hit's columns: from `search_versions` (its message, tags and date are copies kept by
 * triggers, in a narrow row) and the two names; from `versions` only the leading columns, which
 * SQLite reads without following the stored waveform's overflow pages.
 */
const hitsFrom = (found: RawBuilder<unknown>) => sql`select s.version_id as id, s.project_id,
    v.branch_id, v.version_number, s.message, s.tags, s.created_at,
    p.name as project_name, b.name as branch_name
  from ${found} as h
  join search_versions s on s.id = h.id
  join projects p on p.id = s.project_id
  join versions v on v.id = s.version_id
  join branches b on b.id = v.branch_id`;

/**
 * SQLite's search of a word of 3 characters or more, by the FTS5 trigram indexes (migrations
 * 0018, 0019), each statement compiled once. Versions take one of two plans:
 * - the walk: the word's matches newest first (the FTS rowid is the order rows were written),
 *   each checked against the person's projects, stopping at the 50th readable one: a common word
 *   stops early;
 * - the person's own rows, when their readable versions are few (OWN_ROWS_AT_MOST by the kept
 *   counts): every one of them is matched, so a word common in the instance but not among the
 *   person's versions does not walk the instance's matches.
 */
export class SqliteSearch {
  private readonly projectHits;
  private readonly branchHits;
  private readonly ownCount;
  private readonly walk;
  private readonly own;

  constructor(db: Kysely<Database>) {
    const once = <Args extends string[], Row>(
      arity: Args['length'],
      build: (...args: Args) => RawBuilder<Row>,
    ) =>
      new CompiledOnce<Args, Row>(db as unknown as Kysely<never>, arity, (...args) => ({
        compile: () => build(...args).compile(db),
      }));
    this.projectHits = once(
      2,
      (u: string, phrase: string) =>
        sql<SearchHits['projects'][number]>`select p.id, p.name, p.description, p.updated_at
        from search_names_fts f join search_names n on n.id = f.rowid
        join projects p on p.id = n.target_id
        where search_names_fts match ${phrase} and n.kind = 'project' and ${readableProject(u, 'p')}
        order by f.rowid desc limit 50`,
    );
    this.branchHits = once(
      2,
      (u: string, phrase: string) =>
        sql<
          SearchHits['branches'][number]
        >`select b.id, b.name, b.project_id, p.name as project_name
        from search_names_fts f join search_names n on n.id = f.rowid
        join branches b on b.id = n.target_id join projects p on p.id = b.project_id
        where search_names_fts match ${phrase} and n.kind = 'branch' and ${readableProject(u, 'p')}
        order by f.rowid desc limit 50`,
    );
    // At most OWN_PROJECTS_AT_MOST + 1 projects are read, and only their branches' counts.
    this.ownCount = once(
      1,
      (u: string) =>
        sql<{ projects: number; versions: number | null }>`with r as materialized (
          select id from ${readableIds(u)} limit ${sql.lit(OWN_PROJECTS_AT_MOST + 1)})
        select (select count(*) from r) as projects,
          (select sum(version_count) from branches where project_id in (select id from r)) as versions`,
    );
    this.walk = once(
      2,
      (u: string, phrase: string) =>
        sql<VersionHit>`${hitsFrom(sql`(select f.rowid as id
        from search_versions_fts f join search_versions s on s.id = f.rowid
        join projects p on p.id = s.project_id
        where search_versions_fts match ${phrase} and ${readableProject(u, 'p')}
        order by f.rowid desc limit 50)`)}`,
    );
    // Folded as the FTS5 index folds (every letter, not ASCII only: `takes_lower`, sqlite-file.ts).
    const like = (column: string, pattern: string) =>
      sql`takes_lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    this.own = once(
      2,
      (u: string, pattern: string) =>
        sql<VersionHit>`${hitsFrom(sql`(select s.id from search_versions s
        where s.project_id in ${readableIds(u)}
          and (${like('s.message', pattern)} or ${like('s.tags', pattern)})
        order by s.created_at desc, s.version_id desc limit 50)`)}`,
    );
  }

  async search(userId: string, q: string): Promise<SearchHits> {
    const phrase = `"${q.replaceAll('"', '""')}"`;
    const projects = await this.projectHits.execute(userId, phrase);
    const branches = await this.branchHits.execute(userId, phrase);
    const own = (await this.ownCount.execute(userId))[0];
    const few =
      own !== undefined &&
      own.projects <= OWN_PROJECTS_AT_MOST &&
      Number(own.versions ?? 0) <= OWN_ROWS_AT_MOST;
    const versions = few
      ? await this.own.execute(userId, likePattern(q))
      : await this.walk.execute(userId, phrase);
    return sortHits({ projects, branches, versions });
  }
}
