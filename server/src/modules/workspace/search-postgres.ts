import { sql, type Kysely, type RawBuilder } from 'kysely';
import { CompiledOnce } from '../../db/compiled-once';
import { PLAN_EACH_TIME } from '../../db/pg-prepared';
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
 * How many of the instance's newest versions a search walks for its newest matches before it
 * looks among all of them (through LIKE: PostgreSQL, and words shorter than FTS5's trigrams on
 * SQLite). 300: a word in a third of a big account's versions fills the page within about 170
 * rows, and a rare word or a miss, for which the walk is wasted, costs 0.3 ms less than with 1,000
 * (PostgreSQL, big account: a miss 1,406 → 2,250 req/s, a rare word 703 → 980; issue 51).
 */
export const SEARCH_WALK_WINDOW = 300;

/** One row of the search statement: a project, a branch or a version, told by `kind`. */
interface HitRow extends Partial<Omit<VersionHit, 'id'>> {
  kind: 'project' | 'branch' | 'version';
  id: string;
  name: string | null;
  description: string | null;
  updated_at: string | null;
}

/**
 * PostgreSQL's search: projects, branches and versions in one statement (one round trip, one
 * plan kept per connection), by the pg_trgm indexes on the lowered words (migration 0018).
 * Versions take one of three parts, each behind a one-time filter PostgreSQL checks before it
 * starts the part (the others are never run):
 * - a person with few versions (OWN_PROJECTS_AT_MOST projects, OWN_ROWS_AT_MOST versions by the
 *   branches' kept counts): each project's newest matches by its (project_id, created_at) index,
 *   so a word common in the instance but not theirs reads only their rows;
 * - otherwise the instance's newest SEARCH_WALK_WINDOW versions, walked by the created_at index
 *   (a common word stops there, whatever the number of its matches);
 * - and when fewer than 50 readable ones are there, all matches, which the trigram indexes find
 *   (a rare word: few). A word under 3 characters has no trigram:
 * that statement is planned with the word each time (PLAN_EACH_TIME).
 */
export class PostgresSearch {
  private readonly trigram;
  private readonly short;

  constructor(db: Kysely<Database>) {
    const once = (planning: string) =>
      new CompiledOnce<[string, string], HitRow>(
        db as unknown as Kysely<never>,
        2,
        (u: string, pattern: string) => ({
          compile: () => sql<HitRow>`${statement(u, pattern)}${sql.raw(planning)}`.compile(db),
        }),
      );
    this.trigram = once('');
    this.short = once(` ${PLAN_EACH_TIME}`);
  }

  async search(userId: string, q: string): Promise<SearchHits> {
    const query = [...q].length < 3 ? this.short : this.trigram;
    const rows = await query.execute(userId, likePattern(q));
    const hits: SearchHits = { projects: [], branches: [], versions: [] };
    for (const row of rows) {
      if (row.kind === 'project')
        hits.projects.push({
          id: row.id,
          name: row.name ?? '',
          description: row.description,
          updated_at: row.updated_at ?? '',
        });
      else if (row.kind === 'branch')
        hits.branches.push({
          id: row.id,
          name: row.name ?? '',
          project_id: row.project_id ?? '',
          project_name: row.project_name ?? '',
        });
      else
        hits.versions.push({
          id: row.id,
          project_id: row.project_id ?? '',
          branch_id: row.branch_id ?? '',
          version_number: row.version_number ?? 0,
          message: row.message ?? null,
          tags: row.tags ?? '[]',
          created_at: row.created_at ?? '',
          project_name: row.project_name ?? '',
          branch_name: row.branch_name ?? '',
        });
    }
    return sortHits(hits);
  }
}

function statement(u: string, pattern: string): RawBuilder<HitRow> {
  const like = (column: string) => sql`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  const versionMatch = sql`(${like('v.message')} or ${like('v.tags')})`;
  // r: up to OWN_PROJECTS_AT_MOST + 1 readable projects; few: whether they are all the person's
  // and hold at most OWN_ROWS_AT_MOST versions (the branches' kept counts).
  return sql<HitRow>`with r as materialized (select id from (
        select id from projects where owner_id = ${u}
        union all select project_id from project_members where user_id = ${u}) as a
      limit ${sql.lit(OWN_PROJECTS_AT_MOST + 1)}),
    few as materialized (select (select count(*) from r) <= ${sql.lit(OWN_PROJECTS_AT_MOST)}
      and (select coalesce(sum(version_count), 0) from branches
        where project_id in (select id from r)) <= ${sql.lit(OWN_ROWS_AT_MOST)} as yes),
    window_hits as materialized (
      select v.id, v.created_at from (
        select id, project_id, message, tags, created_at from versions
        order by created_at desc, id desc limit ${sql.lit(SEARCH_WALK_WINDOW)}) as v
      join projects p on p.id = v.project_id
      where ${versionMatch} and ${readableProject(u, 'p')}
      order by v.created_at desc, v.id desc limit 50),
    hits as (
      (select x.id, x.created_at from r cross join lateral (
          select v.id, v.created_at from versions v where v.project_id = r.id and ${versionMatch}
          order by v.created_at desc, v.id desc limit 50) as x
        where (select yes from few)
        order by x.created_at desc, x.id desc limit 50)
      union all
      select * from window_hits
        where not (select yes from few) and (select count(*) from window_hits) = 50
      union all
      (select v.id, v.created_at from versions v join projects p on p.id = v.project_id
        where not (select yes from few) and (select count(*) from window_hits) < 50
          and ${versionMatch} and ${readableProject(u, 'p')}
        order by v.created_at desc, v.id desc limit 50))
    (select 'project' as kind, p.id, p.name, p.description, p.updated_at,
        null as project_id, null as project_name, null as branch_id, null::integer as version_number,
        null as message, null as tags, null::timestamptz as created_at, null as branch_name
      from projects p
      where (${like('p.name')} or ${like('p.description')}) and ${readableProject(u, 'p')}
      order by p.updated_at desc limit 50)
    union all
    (select 'branch', b.id, b.name, null, null, b.project_id, p.name, null, null, null, null, null, null
      from branches b join projects p on p.id = b.project_id
      where ${like('b.name')} and ${readableProject(u, 'p')}
      order by b.name limit 50)
    union all
    (select 'version', v.id, null, null, null, v.project_id, p.name, v.branch_id, v.version_number,
        v.message, v.tags, v.created_at, b.name
      from hits h join versions v on v.id = h.id join projects p on p.id = v.project_id
      join branches b on b.id = v.branch_id)`;
}
