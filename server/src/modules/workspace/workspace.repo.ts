import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from '../../db/dialect-sql';
import { PLAN_EACH_TIME } from '../../db/pg-prepared';
import type { Database, JobsTable } from '../../db/schema';
import { projectRolesOf, readableProject, readableProjectOf } from '../access';
import { likePattern } from './search-hits';
import { PostgresSearch, SEARCH_WALK_WINDOW } from './search-postgres';
import { SqliteSearch } from './search-sqlite';

export { SEARCH_WALK_WINDOW };

/** What a version hit of a search shows. */
const VERSION_HIT_COLUMNS = [
  'versions.id',
  'versions.project_id',
  'versions.branch_id',
  'versions.version_number',
  'versions.message',
  'versions.tags',
  'versions.created_at',
  'projects.name as project_name',
  'branches.name as branch_name',
] as const;

/**
 * SQL for the workspace-wide views: the dashboard's figures, search, the debug page's counts.
 * A person's figures and search cover every project they own or are a member of (the access
 * module's rule: owner or member).
 */
export class WorkspaceRepo {
  private readonly indexed: SqliteSearch | undefined;
  private readonly postgres: PostgresSearch | undefined;

  constructor(private readonly db: Kysely<Database>) {
    if (dialectOf(db as unknown as Kysely<unknown>) === 'sqlite')
      this.indexed = new SqliteSearch(db);
    else this.postgres = new PostgresSearch(db);
  }

  /**
   * The person's project count with the latest update, branch count, and versions since `since`,
   * over their own and shared projects.
   */
  async stats(userId: string, since: string) {
    // One statement, each figure from an index. The person's own projects come by the
    // (owner_id, updated_at) index; shared ones through project_members; branches are the
    // projects' kept counts (migration 0024). A version is never newer
    // than its project's updated_at (creating one touches the project in the same transaction),
    // so only projects updated since `since` can hold recent versions: an account with a long
    // history costs what its last month costs.
    const shared = sql`select p.id, p.updated_at, p.branch_count from projects p
      join project_members pm on pm.project_id = p.id where pm.user_id = ${userId}`;
    const row = (
      await sql<{
        projects: number | string;
        last: string | Date | null;
        branches: number | string;
        recent: number | string;
      }>`select
        (select count(*) from projects where owner_id = ${userId})
          + (select count(*) from project_members where user_id = ${userId}) as projects,
        (select max(m) from (
          select max(updated_at) as m from projects where owner_id = ${userId}
          union all select max(s.updated_at) from (${shared}) as s) as l) as last,
        (select coalesce(sum(branch_count), 0) from projects where owner_id = ${userId})
          + (select coalesce(sum(s.branch_count), 0) from (${shared}) as s) as branches,
        (select count(*) from versions where created_at >= ${since} and project_id in (
          select id from projects where owner_id = ${userId} and updated_at >= ${since}
          union all select s.id from (${shared}) as s where s.updated_at >= ${since})) as recent`.execute(
        this.db,
      )
    ).rows[0];
    return {
      projects: { n: Number(row?.projects ?? 0), last: row?.last ?? null },
      branches: { n: Number(row?.branches ?? 0) },
      recent: { n: Number(row?.recent ?? 0) },
    };
  }

  /**
   * Up to 50 each of the projects, branches and versions (of the person's own and shared
   * projects) whose words contain `q`: projects most recently updated first, branches by name,
   * versions newest first. PostgreSQL: one statement by the pg_trgm indexes
   * (`search-postgres.ts`). SQLite, from 3 characters: the FTS5 trigram indexes
   * (`search-sqlite.ts`). SQLite, shorter words (no trigram): LIKE, below, where versions are
   * first looked for among the instance's newest SEARCH_WALK_WINDOW (a common word stops there)
   * and only otherwise among all matches.
   */
  async search(userId: string, q: string) {
    const pattern = likePattern(q);
    const like = (column: string) =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    if (this.postgres) return this.postgres.search(userId, q);
    if (this.indexed && [...q].length >= 3) return this.indexed.search(userId, q);
    const readable = readableProject(userId, 'p');
    // From 3 characters the trigram indexes find the names, whatever the word: one plan, kept
    // per connection. A shorter word has no trigram: planned with the word each time.
    const planning = sql.raw([...q].length < 3 ? PLAN_EACH_TIME : '');
    const projects = await this.db
      .selectFrom('projects as p')
      .select(['p.id', 'p.name', 'p.description', 'p.updated_at'])
      .where((eb) => eb.or([like('p.name'), like('p.description')]))
      .where(readable)
      .orderBy('p.updated_at', 'desc')
      .limit(50)
      .modifyEnd(planning)
      .execute();
    const branches = await this.db
      .selectFrom('branches')
      .innerJoin('projects as p', 'p.id', 'branches.project_id')
      .select(['branches.id', 'branches.name', 'branches.project_id', 'p.name as project_name'])
      .where(like('branches.name'))
      .where(readable)
      .orderBy('branches.name')
      .limit(50)
      .modifyEnd(planning)
      .execute();
    const matches = sql<boolean>`(${like('v.message')} or ${like('v.tags')})`;
    // A common word: its 50 newest readable matches are among the instance's newest versions,
    // found by walking those (index on created_at) instead of sorting every match; the hits'
    // rows come in the same statement, joined from the walk (so the walk drives the plan).
    const walk = sql<{ id: string; created_at: string }>`(select v.id, v.created_at from (
        select id, project_id, message, tags, created_at from versions
        order by created_at desc, id desc limit ${SEARCH_WALK_WINDOW}) as v
      where ${matches} and ${readableProjectOf(this.db, userId, 'v.project_id')}
      order by v.created_at desc, v.id desc
      limit 50)`;
    let versions = await this.db
      .selectFrom(walk.as('w'))
      .innerJoin('versions', 'versions.id', 'w.id')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .select(VERSION_HIT_COLUMNS)
      .orderBy('w.created_at', 'desc')
      .orderBy('w.id', 'desc')
      .execute();
    if (versions.length < 50) versions = await this.allMatches(userId, q, like);
    return { projects, branches, versions };
  }

  /**
   * Every readable version matching `q`, newest first (50): what a word rare among the newest
   * versions needs. From 3 characters the trigram indexes find the matches first (a
   * materialized step, so the plan kept per connection is that one whatever the word); a
   * shorter word is planned with the word each time.
   */
  private allMatches(userId: string, q: string, like: (column: string) => RawBuilder<boolean>) {
    if ([...q].length < 3)
      return this.db
        .selectFrom('versions')
        .innerJoin('projects', 'projects.id', 'versions.project_id')
        .innerJoin('branches', 'branches.id', 'versions.branch_id')
        .select(VERSION_HIT_COLUMNS)
        .where((eb) => eb.or([like('versions.message'), like('versions.tags')]))
        .where(readableProject(userId, 'projects'))
        .orderBy('versions.created_at', 'desc')
        .orderBy('versions.id', 'desc')
        .limit(50)
        .modifyEnd(sql.raw(PLAN_EACH_TIME))
        .execute();
    // The trigram indexes find the matches (a materialized step, so the plan kept per connection
    // is that one whatever the word) with their project and date, read in the same heap visit;
    // the person's projects filter them as one hashed set (no join over every version), and
    // only the 50 newest are joined for their names.
    return this.db
      .with(
        (cte) => cte('m').materialized(),
        (db) =>
          db
            .selectFrom('versions')
            .select(['id', 'project_id', 'created_at'])
            .where((eb) => eb.or([like('versions.message'), like('versions.tags')])),
      )
      .with('hits', (db) =>
        db
          .selectFrom('m')
          .select(['m.id', 'm.created_at'])
          .where('m.project_id', 'in', (eb) =>
            eb.selectFrom(projectRolesOf(this.db, userId).as('r')).select('r.project_id'),
          )
          .orderBy('m.created_at', 'desc')
          .orderBy('m.id', 'desc')
          .limit(50),
      )
      .selectFrom('hits')
      .innerJoin('versions', 'versions.id', 'hits.id')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .select(VERSION_HIT_COLUMNS)
      .orderBy('hits.created_at', 'desc')
      .orderBy('hits.id', 'desc')
      .execute();
  }

  /** The migrations applied, in order. */
  async migrationNames(): Promise<string[]> {
    const migrations = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(this.db);
    return migrations.rows.map((r) => r.name);
  }

  /** How many jobs are in each state. */
  jobCounts(): Promise<{ state: JobsTable['state']; n: number }[]> {
    return this.db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
  }

  findUser(userId: string) {
    return this.db
      .selectFrom('users')
      .select(['email', 'email_verified'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }
}
