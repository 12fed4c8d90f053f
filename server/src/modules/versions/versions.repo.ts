import type { Kysely } from 'kysely';
import type { Database, ProjectsTable, VersionsTable } from '../../db/schema';

/** The database or a transaction on it. */
export type Executor = Kysely<Database>;

/** SQL for versions. Every read of an owned row joins its project and names the owner. */
export class VersionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  find(
    ownerId: string,
    versionId: string,
    db: Executor = this.db,
  ): Promise<VersionsTable | undefined> {
    return db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .selectAll('versions')
      .where('versions.id', '=', versionId)
      .where('projects.owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  async findWithProject(
    ownerId: string,
    versionId: string,
  ): Promise<{ version: VersionsTable; project: ProjectsTable } | undefined> {
    const version = await this.find(ownerId, versionId);
    if (!version) return undefined;
    const project = await this.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', version.project_id)
      .executeTakeFirstOrThrow();
    return { version, project };
  }

  /** For the processing job, which runs without a caller. */
  findById(versionId: string): Promise<VersionsTable | undefined> {
    return this.db
      .selectFrom('versions')
      .selectAll()
      .where('id', '=', versionId)
      .executeTakeFirst();
  }

  listForBranches(branchIds: string[], db: Executor = this.db): Promise<VersionsTable[]> {
    if (branchIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('versions')
      .selectAll()
      .where('branch_id', 'in', branchIds)
      .orderBy('version_number', 'desc')
      .execute();
  }

  recent(ownerId: string, limit: number) {
    return this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .select([
        'versions.id',
        'versions.version_number',
        'versions.message',
        'versions.created_at',
        'versions.project_id',
        'projects.name as project_name',
      ])
      .where('projects.owner_id', '=', ownerId)
      .orderBy('versions.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  async nextNumber(branchId: string, db: Executor): Promise<number> {
    const row = await db
      .selectFrom('versions')
      .select((eb) => eb.fn.max<number | null>('version_number').as('max'))
      .where('branch_id', '=', branchId)
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  }

  async insert(row: VersionsTable, db: Executor): Promise<void> {
    await db.insertInto('versions').values(row).execute();
  }

  async update(
    versionId: string,
    changes: Partial<VersionsTable>,
    db: Executor = this.db,
  ): Promise<void> {
    await db.updateTable('versions').set(changes).where('id', '=', versionId).execute();
  }

  async delete(versionId: string, db: Executor): Promise<void> {
    await db.deleteFrom('versions').where('id', '=', versionId).execute();
  }
}
