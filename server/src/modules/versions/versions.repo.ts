import type { Kysely } from 'kysely';
import type { Database, ProjectRow, VersionsTable } from '../../db/schema';
import { projectRolesOf } from '../access';
import type { ListedVersionRow } from './version-view';

/** The database or a transaction on it. */
export type Executor = Kysely<Database>;

/**
 * SQL for versions. Reads and writes go by id: the access policy, asked first by the services,
 * decides who may; the recent list joins the caller's roles.
 */
export class VersionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** A version by id (the caller's access was checked by the policy). */
  find(versionId: string, db: Executor = this.db): Promise<VersionsTable | undefined> {
    return db.selectFrom('versions').selectAll().where('id', '=', versionId).executeTakeFirst();
  }

  async findWithProject(
    versionId: string,
  ): Promise<{ version: VersionsTable; project: ProjectRow } | undefined> {
    const version = await this.find(versionId);
    if (!version) return undefined;
    const project = await this.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', version.project_id)
      .executeTakeFirst();
    return project ? { version, project } : undefined;
  }

  /** For the processing job, which runs without a caller. */
  findById(versionId: string): Promise<VersionsTable | undefined> {
    return this.db
      .selectFrom('versions')
      .selectAll()
      .where('id', '=', versionId)
      .executeTakeFirst();
  }

  /** The versions of these branches without their full waveforms, with their list previews. */
  listForBranches(branchIds: string[], db: Executor = this.db): Promise<ListedVersionRow[]> {
    if (branchIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('versions as v')
      .leftJoin('version_previews as vp', 'vp.version_id', 'v.id')
      .select([
        'v.id',
        'v.project_id',
        'v.branch_id',
        'v.version_number',
        'v.message',
        'v.tags',
        'v.original_key',
        'v.original_name',
        'v.original_size',
        'v.original_format',
        'v.status',
        'v.error',
        'v.metadata',
        'v.loudness',
        'v.renditions',
        'v.file_url',
        'v.created_at',
        'v.updated_at',
        'v.review_status',
        'vp.peaks as preview_peaks',
        'vp.duration as preview_duration',
      ])
      .where('v.branch_id', 'in', branchIds)
      .orderBy('v.version_number', 'desc')
      .execute();
  }

  /** The newest versions of every project the user may see (owned and shared). */
  recent(userId: string, limit: number) {
    return this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .innerJoin(projectRolesOf(this.db, userId).as('access'), 'access.project_id', 'projects.id')
      .select([
        'versions.id',
        'versions.version_number',
        'versions.message',
        'versions.created_at',
        'versions.project_id',
        'projects.name as project_name',
      ])
      .orderBy('versions.created_at', 'desc')
      .orderBy('versions.id')
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
