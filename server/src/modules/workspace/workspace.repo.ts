import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from '../../db/dialect-sql';
import type { Database, JobsTable } from '../../db/schema';
import { projectRolesOf } from '../access';

/** Likes a user's words literally: % and _ match themselves. */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * SQL for the workspace-wide views: the dashboard's figures, search, the debug page's counts.
 * A person's figures and search cover every project they own or are a member of (the access
 * module's `projectRolesOf`, joined).
 */
export class WorkspaceRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The projects a person can see, as a join target (`access.project_id`). */
  private visible(userId: string) {
    return projectRolesOf(this.db, userId).as('access');
  }

  /**
   * The person's project count with the latest update, branch count, and versions since `since`,
   * over their own and shared projects.
   */
  async stats(userId: string, since: string) {
    const projects = await this.db
      .selectFrom('projects')
      .innerJoin(this.visible(userId), 'access.project_id', 'projects.id')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.max('projects.updated_at').as('last'),
      ])
      .executeTakeFirst();
    const branches = await this.db
      .selectFrom('branches')
      .innerJoin(this.visible(userId), 'access.project_id', 'branches.project_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    const recent = await this.db
      .selectFrom('versions')
      .innerJoin(this.visible(userId), 'access.project_id', 'versions.project_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('versions.created_at', '>=', since)
      .executeTakeFirst();
    return { projects, branches, recent };
  }

  /**
   * Up to 50 each of the projects, branches and versions (of the person's own and shared
   * projects) whose words contain `q`.
   */
  async search(userId: string, q: string) {
    const pattern = likePattern(q);
    const like = (column: string) =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    const projects = await this.db
      .selectFrom('projects')
      .innerJoin(this.visible(userId), 'access.project_id', 'projects.id')
      .select(['projects.id', 'projects.name', 'projects.description', 'projects.updated_at'])
      .where((eb) => eb.or([like('projects.name'), like('projects.description')]))
      .orderBy('projects.updated_at', 'desc')
      .limit(50)
      .execute();
    const branches = await this.db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .innerJoin(this.visible(userId), 'access.project_id', 'projects.id')
      .select([
        'branches.id',
        'branches.name',
        'branches.project_id',
        'projects.name as project_name',
      ])
      .where(like('branches.name'))
      .orderBy('branches.name')
      .limit(50)
      .execute();
    const versions = await this.searchVersions(userId, q, pattern, like);
    return { projects, branches, versions };
  }

  /**
   * The newest 50 versions whose message or tags contain `q`. On SQLite the match and the order
   * come from the narrow `search_versions` rows (FTS5 trigram index for 3 characters and more),
   * and only the 50 found are read from `versions`; PostgreSQL's trigram indexes serve the LIKE.
   */
  private async searchVersions(
    userId: string,
    q: string,
    pattern: string,
    like: (column: string) => RawBuilder<boolean>,
  ) {
    const columns = [
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
    if (dialectOf(this.db as unknown as Kysely<unknown>) === 'sqlite') {
      let found = this.db
        .selectFrom('search_versions as s')
        .innerJoin(this.visible(userId), 'access.project_id', 's.project_id')
        .select('s.version_id')
        .orderBy('s.created_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(50);
      found =
        [...q].length >= 3
          ? found.where(
              's.id',
              'in',
              sql<number>`(select rowid from search_versions_fts where search_versions_fts match ${`"${q.replaceAll('"', '""')}"`})`,
            )
          : found.where((eb) => eb.or([like('s.message'), like('s.tags')]));
      const ids = (await found.execute()).map((row) => row.version_id);
      if (ids.length === 0) return [];
      const rows = await this.db
        .selectFrom('versions')
        .innerJoin('projects', 'projects.id', 'versions.project_id')
        .innerJoin('branches', 'branches.id', 'versions.branch_id')
        .select(columns)
        .where('versions.id', 'in', ids)
        .execute();
      const order = new Map(ids.map((id, index) => [id, index]));
      return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    }
    return this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .innerJoin(this.visible(userId), 'access.project_id', 'projects.id')
      .select(columns)
      .where((eb) => eb.or([like('versions.message'), like('versions.tags')]))
      .orderBy('versions.created_at', 'desc')
      .limit(50)
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
