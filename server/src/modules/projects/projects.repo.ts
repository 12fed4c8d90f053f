import type { Kysely, Transaction } from 'kysely';
import type { Role } from '@takes/contract';
import { projectRolesOf } from '../access';
import type {
  Branch,
  Database,
  NewBranch,
  NewProject,
  ProjectRow,
  ProjectsTable,
  VersionsTable,
} from '../../db/schema';

export type Executor = Kysely<Database> | Transaction<Database>;

/** Ids bound per statement (SQLite allows 32,766 variables; PostgreSQL 65,535). */
const ID_CHUNK = 500;

export type BranchCountRow = Branch;

/** Branches as every list shows them: the default first, then by name. */
function defaultThenName(a: Branch, b: Branch): number {
  return b.is_default - a.is_default || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** A project shared with the user, with their role and the owner's name and avatar. */
export interface SharedProjectRow extends ProjectRow {
  role: Role;
  owner_user_name: string;
  owner_email: string;
  owner_display_name: string | null;
  owner_avatar_key: string | null;
  owner_profile_updated_at: string | null;
}

/**
 * SQL for projects and branches. Reads and writes go by id: who may touch a project is the access
 * policy's answer, asked by the service first; lists join the caller's roles.
 */
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

  /** The stored audio of guests' files waiting on a project or a branch (they go with it). */
  guestFilesAudio(where: { projectId: string } | { branchId: string }, db: Executor) {
    return db
      .selectFrom('guest_files')
      .select(['original_key', 'renditions', 'waveform'])
      .where(
        'projectId' in where ? 'project_id' : 'branch_id',
        '=',
        'projectId' in where ? where.projectId : where.branchId,
      )
      .execute();
  }

  /**
   * The projects the user owns ('Your Projects'), most recently updated first, each with its
   * branches: a page of `limit` after the project `after` (keyset on updated_at and id, served by
   * the owner_id/updated_at index), joined to its branches in the same statement (each project's
   * from the (project_id, name) index), so a page is one round trip whatever its size.
   */
  async listOwned(
    userId: string,
    page: {
      limit?: number | undefined;
      after?: { updated_at: string; id: string } | undefined;
    } = {},
  ): Promise<{ project: ProjectRow; branches: Branch[] }[]> {
    let projects = this.db
      .selectFrom('projects')
      .selectAll()
      .where('owner_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id');
    const { after } = page;
    if (after)
      projects = projects.where((eb) =>
        eb.or([
          eb('updated_at', '<', after.updated_at),
          eb.and([eb('updated_at', '=', after.updated_at), eb('id', '>', after.id)]),
        ]),
      );
    if (page.limit !== undefined) projects = projects.limit(page.limit);
    const rows = await this.db
      .selectFrom(projects.as('page'))
      .leftJoin('branches as b', 'b.project_id', 'page.id')
      .selectAll('page')
      .select([
        'b.id as branch_id',
        'b.name as branch_name',
        'b.is_default as branch_is_default',
        'b.version_count as branch_version_count',
        'b.created_at as branch_created_at',
        'b.updated_at as branch_updated_at',
      ])
      .orderBy('page.updated_at', 'desc')
      .orderBy('page.id')
      .execute();
    const out: { project: ProjectRow; branches: Branch[] }[] = [];
    for (const row of rows) {
      const {
        branch_id,
        branch_name,
        branch_is_default,
        branch_version_count,
        branch_created_at,
        branch_updated_at,
        ...project
      } = row;
      let last = out.at(-1);
      if (last?.project.id !== project.id) out.push((last = { project, branches: [] }));
      if (branch_id !== null)
        last.branches.push({
          id: branch_id,
          project_id: project.id,
          name: branch_name as string,
          is_default: branch_is_default as number,
          version_count: branch_version_count as number,
          created_at: branch_created_at as string,
          updated_at: branch_updated_at as string,
        });
    }
    for (const { branches } of out) branches.sort(defaultThenName);
    return out;
  }

  /**
   * The projects others own that the user is a member of ('Shared with you'), newest first,
   * with the user's role and what the owner's card shows of them.
   */
  listShared(userId: string): Promise<SharedProjectRow[]> {
    return this.db
      .selectFrom('projects')
      .innerJoin(projectRolesOf(this.db, userId).as('access'), 'access.project_id', 'projects.id')
      .innerJoin('users', 'users.id', 'projects.owner_id')
      .leftJoin('profiles', 'profiles.user_id', 'projects.owner_id')
      .selectAll('projects')
      .select([
        'access.role',
        'users.name as owner_user_name',
        'users.email as owner_email',
        'profiles.display_name as owner_display_name',
        'profiles.avatar_key as owner_avatar_key',
        'profiles.updated_at as owner_profile_updated_at',
      ])
      .where('access.role', '!=', 'owner')
      .orderBy('projects.updated_at', 'desc')
      .orderBy('projects.id')
      .execute();
  }

  /** A project by id (the caller's access was checked by the policy). */
  findProject(projectId: string, db: Executor = this.db): Promise<ProjectRow | undefined> {
    return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
  }

  async insertProject(row: NewProject, db: Executor = this.db): Promise<void> {
    await db.insertInto('projects').values(row).execute();
  }

  async updateProject(
    projectId: string,
    changes: Partial<
      Pick<ProjectsTable, 'name' | 'description' | 'is_private' | 'listed' | 'updated_at'>
    >,
    db: Executor = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('projects')
      .set(changes)
      .where('id', '=', projectId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async touchProject(projectId: string, at: string, db: Executor = this.db): Promise<void> {
    await db.updateTable('projects').set({ updated_at: at }).where('id', '=', projectId).execute();
  }

  async deleteProject(projectId: string, db: Executor = this.db): Promise<boolean> {
    const result = await db.deleteFrom('projects').where('id', '=', projectId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Branches of these projects with their version counts (the column the triggers on versions
   * keep): default first, then by name; the ids go in chunks well under SQLite's bound-variable
   * limit.
   */
  async branchesWithCounts(
    projectIds: string[],
    db: Executor = this.db,
  ): Promise<BranchCountRow[]> {
    const rows: BranchCountRow[] = [];
    for (let i = 0; i < projectIds.length; i += ID_CHUNK) {
      const chunk = projectIds.slice(i, i + ID_CHUNK);
      const found = await db
        .selectFrom('branches')
        .selectAll()
        .where('project_id', 'in', chunk)
        .execute();
      for (const row of found) rows.push(row);
    }
    return rows.sort(defaultThenName);
  }

  /** A branch by id (the caller's access was checked by the policy). */
  findBranch(branchId: string, db: Executor = this.db): Promise<Branch | undefined> {
    return db.selectFrom('branches').selectAll().where('id', '=', branchId).executeTakeFirst();
  }

  findBranchByName(
    projectId: string,
    name: string,
    db: Executor = this.db,
  ): Promise<Branch | undefined> {
    return db
      .selectFrom('branches')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  async insertBranch(row: NewBranch, db: Executor = this.db): Promise<void> {
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
