import type { Kysely, Transaction } from 'kysely';
import type { BranchesTable, Database, ProjectsTable, VersionsTable } from '../../db/schema';

export type Executor = Kysely<Database> | Transaction<Database>;

export interface BranchCountRow extends BranchesTable {
  version_count: number;
}

/** SQL for projects and branches. Every read of an owned row names its owner. */
export class ProjectsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The versions about to be removed with a project or a branch. */
  versionsOfProject(projectId: string, db: Executor): Promise<VersionsTable[]> {
    return db.selectFrom('versions').selectAll().where('project_id', '=', projectId).execute();
  }

  versionsOfBranch(branchId: string, db: Executor): Promise<VersionsTable[]> {
    return db.selectFrom('versions').selectAll().where('branch_id', '=', branchId).execute();
  }

  listProjects(ownerId: string): Promise<ProjectsTable[]> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('updated_at', 'desc')
      .orderBy('id')
      .execute();
  }

  findProject(
    ownerId: string,
    projectId: string,
    db: Executor = this.db,
  ): Promise<ProjectsTable | undefined> {
    return db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  async insertProject(row: ProjectsTable, db: Executor = this.db): Promise<void> {
    await db.insertInto('projects').values(row).execute();
  }

  async updateProject(
    ownerId: string,
    projectId: string,
    changes: Partial<Pick<ProjectsTable, 'name' | 'description' | 'is_private' | 'updated_at'>>,
    db: Executor = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('projects')
      .set(changes)
      .where('id', '=', projectId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async touchProject(projectId: string, at: string, db: Executor = this.db): Promise<void> {
    await db.updateTable('projects').set({ updated_at: at }).where('id', '=', projectId).execute();
  }

  async deleteProject(
    ownerId: string,
    projectId: string,
    db: Executor = this.db,
  ): Promise<boolean> {
    const result = await db
      .deleteFrom('projects')
      .where('id', '=', projectId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Branches of the owner's projects with their version counts: default first, then by name. */
  branchesWithCounts(
    ownerId: string,
    projectIds: string[],
    db: Executor = this.db,
  ): Promise<BranchCountRow[]> {
    if (projectIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .leftJoin('versions', 'versions.branch_id', 'branches.id')
      .selectAll('branches')
      .select((eb) => eb.fn.count<number>('versions.id').as('version_count'))
      .where('projects.owner_id', '=', ownerId)
      .where('branches.project_id', 'in', projectIds)
      .groupBy([
        'branches.id',
        'branches.project_id',
        'branches.name',
        'branches.is_default',
        'branches.created_at',
        'branches.updated_at',
      ])
      .orderBy('branches.is_default', 'desc')
      .orderBy('branches.name')
      .execute()
      .then((rows) => rows.map((row) => ({ ...row, version_count: Number(row.version_count) })));
  }

  findBranch(
    ownerId: string,
    branchId: string,
    db: Executor = this.db,
  ): Promise<BranchesTable | undefined> {
    return db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .selectAll('branches')
      .where('branches.id', '=', branchId)
      .where('projects.owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  findBranchByName(
    projectId: string,
    name: string,
    db: Executor = this.db,
  ): Promise<BranchesTable | undefined> {
    return db
      .selectFrom('branches')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  async insertBranch(row: BranchesTable, db: Executor = this.db): Promise<void> {
    await db.insertInto('branches').values(row).execute();
  }

  async renameBranch(
    branchId: string,
    name: string,
    at: string,
    db: Executor = this.db,
  ): Promise<void> {
    await db
      .updateTable('branches')
      .set({ name, updated_at: at })
      .where('id', '=', branchId)
      .execute();
  }

  /** Clears the flag on every branch of the project, then sets it on one (in the caller's transaction). */
  async setDefaultBranch(
    projectId: string,
    branchId: string,
    at: string,
    db: Executor,
  ): Promise<void> {
    await db
      .updateTable('branches')
      .set({ is_default: 0, updated_at: at })
      .where('project_id', '=', projectId)
      .where('is_default', '=', 1)
      .execute();
    await db
      .updateTable('branches')
      .set({ is_default: 1, updated_at: at })
      .where('id', '=', branchId)
      .execute();
  }

  async deleteBranch(branchId: string, db: Executor = this.db): Promise<void> {
    await db.deleteFrom('branches').where('id', '=', branchId).execute();
  }
}
