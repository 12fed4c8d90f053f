import { sql, type Kysely } from 'kysely';
import type { Database, JobsTable } from '../../db/schema';

/** Likes a user's words literally: % and _ match themselves. */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL for the workspace-wide views: the dashboard's figures, search, the debug page's counts. */
export class WorkspaceRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The owner's project count with the latest update, branch count, and versions since `since`. */
  async stats(ownerId: string, since: string) {
    const projects = await this.db
      .selectFrom('projects')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('last')])
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    const branches = await this.db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('projects.owner_id', '=', ownerId)
      .executeTakeFirst();
    const recent = await this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('projects.owner_id', '=', ownerId)
      .where('versions.created_at', '>=', since)
      .executeTakeFirst();
    return { projects, branches, recent };
  }

  /** Up to 50 each of the owner's projects, branches and versions whose words contain `q`. */
  async search(ownerId: string, q: string) {
    const pattern = likePattern(q);
    const like = (column: string) =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    const projects = await this.db
      .selectFrom('projects')
      .select(['id', 'name', 'description', 'updated_at'])
      .where('owner_id', '=', ownerId)
      .where((eb) => eb.or([like('name'), like('description')]))
      .orderBy('updated_at', 'desc')
      .limit(50)
      .execute();
    const branches = await this.db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .select([
        'branches.id',
        'branches.name',
        'branches.project_id',
        'projects.name as project_name',
      ])
      .where('projects.owner_id', '=', ownerId)
      .where(like('branches.name'))
      .orderBy('branches.name')
      .limit(50)
      .execute();
    const versions = await this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .select([
        'versions.id',
        'versions.project_id',
        'versions.branch_id',
        'versions.version_number',
        'versions.message',
        'versions.tags',
        'versions.created_at',
        'projects.name as project_name',
        'branches.name as branch_name',
      ])
      .where('projects.owner_id', '=', ownerId)
      .where((eb) => eb.or([like('versions.message'), like('versions.tags')]))
      .orderBy('versions.created_at', 'desc')
      .limit(50)
      .execute();
    return { projects, branches, versions };
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
