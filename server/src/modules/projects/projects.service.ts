import { randomUUID } from 'node:crypto';
import {
  PROJECT_MESSAGES,
  type BranchWithVersions,
  type Project,
  type Role,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { BranchesTable, ProjectsTable, VersionsTable } from '../../db/schema';
import { Conflict, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import { ownedAudioKeys, queueCleanup } from '../audio';
import type { VersionsService } from '../versions/versions.service';
import type { BranchCountRow, Executor, ProjectsRepo } from './projects.repo';
import type { AccessPolicy } from '../access';

export const DEFAULT_BRANCH = 'main';

export interface ProjectsDeps {
  /** The one access policy: asked before touching any project's objects. */
  access: AccessPolicy;
  repo: ProjectsRepo;
  clock: Clock;
  jobs: JobQueue;
  /**
   * The versions module's public service, for the versions of listed branches. Reached through
   * a function because it is built after this service (it needs projects for branch ownership).
   */
  versions: () => Pick<VersionsService, 'ofBranches'>;
}

/**
 * Projects and branches: ownership and defaults. A project is made with its default branch
 * `main`; branch names are unique in a project; the default branch cannot be deleted.
 */
export class ProjectsService {
  private readonly repo: ProjectsRepo;

  constructor(private readonly deps: ProjectsDeps) {
    this.repo = deps.repo;
  }

  async list(ownerId: string): Promise<Project[]> {
    const projects = await this.repo.listProjects(ownerId);
    const branches = await this.repo.branchesWithCounts(
      ownerId,
      projects.map((p) => p.id),
    );
    return projects.map((p) =>
      toProject(
        p,
        branches.filter((b) => b.project_id === p.id),
        'owner',
      ),
    );
  }

  async get(ownerId: string, projectId: string): Promise<Project> {
    const project = await this.repo.findProject(ownerId, projectId);
    if (!project) throw new NotFound('Project not found');
    return toProject(project, await this.repo.branchesWithCounts(ownerId, [projectId]), 'owner');
  }

  /** A new project with its default branch `main`, inside the caller's transaction if given. */
  async createInside(
    db: Executor,
    ownerId: string,
    input: { name: string; description?: string | null | undefined; is_private: boolean },
  ): Promise<{ projectId: string; branchId: string }> {
    const now = this.now();
    const projectId = randomUUID();
    const branchId = randomUUID();
    await this.repo.insertProject(
      {
        id: projectId,
        owner_id: ownerId,
        name: input.name,
        description: input.description || null,
        is_private: input.is_private ? 1 : 0,
        listed: 0,
        created_at: now,
        updated_at: now,
      },
      db,
    );
    await this.repo.insertBranch(
      {
        id: branchId,
        project_id: projectId,
        name: DEFAULT_BRANCH,
        is_default: 1,
        created_at: now,
        updated_at: now,
      },
      db,
    );
    return { projectId, branchId };
  }

  async create(
    ownerId: string,
    input: { name: string; description?: string | null | undefined; is_private: boolean },
  ): Promise<Project> {
    const { projectId } = await this.repo.transaction((trx) =>
      this.createInside(trx, ownerId, input),
    );
    return this.get(ownerId, projectId);
  }

  async update(
    ownerId: string,
    projectId: string,
    input: { name?: string | undefined; description?: string | null | undefined },
  ): Promise<Project> {
    const changes: Partial<ProjectsTable> = { updated_at: this.now() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description || null;
    if (!(await this.repo.updateProject(ownerId, projectId, changes)))
      throw new NotFound('Project not found');
    return this.get(ownerId, projectId);
  }

  async togglePrivacy(ownerId: string, projectId: string): Promise<Project> {
    const project = await this.repo.findProject(ownerId, projectId);
    if (!project) throw new NotFound('Project not found');
    await this.repo.updateProject(ownerId, projectId, {
      is_private: project.is_private ? 0 : 1,
      updated_at: this.now(),
    });
    return this.get(ownerId, projectId);
  }

  /** Removes the project, its branches and versions, then their stored audio once unreferenced. */
  async delete(ownerId: string, projectId: string): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const project = await this.repo.findProject(ownerId, projectId, trx);
      if (!project) throw new NotFound('Project not found');
      const doomed = await this.repo.versionsOfProject(projectId, trx);
      await this.repo.deleteProject(ownerId, projectId, trx);
      await this.cleanUpAfter(doomed, trx);
    });
  }

  async listBranches(ownerId: string, projectId: string): Promise<BranchWithVersions[]> {
    const project = await this.repo.findProject(ownerId, projectId);
    if (!project) throw new NotFound('Project not found');
    const branches = await this.repo.branchesWithCounts(ownerId, [projectId]);
    const versions = await this.deps.versions().ofBranches(branches.map((b) => b.id));
    return branches.map((b) => ({
      ...toBranch(b),
      versions: versions.filter((v) => v.branch_id === b.id),
    }));
  }

  async createBranch(ownerId: string, projectId: string, name: string) {
    const project = await this.repo.findProject(ownerId, projectId);
    if (!project) throw new NotFound('Project not found');
    if (await this.repo.findBranchByName(projectId, name))
      throw new Conflict(PROJECT_MESSAGES.branchExists);
    const now = this.now();
    const id = randomUUID();
    try {
      await this.repo.transaction(async (trx) => {
        await this.repo.insertBranch(
          { id, project_id: projectId, name, is_default: 0, created_at: now, updated_at: now },
          trx,
        );
        await this.repo.touchProject(projectId, now, trx);
      });
    } catch (error) {
      // Two creates raced past the check above; the unique constraint decided.
      if (await this.repo.findBranchByName(projectId, name))
        throw new Conflict(PROJECT_MESSAGES.branchExists);
      throw error;
    }
    return this.branchSummary(ownerId, id);
  }

  async renameBranch(ownerId: string, branchId: string, name: string) {
    const branch = await this.repo.findBranch(ownerId, branchId);
    if (!branch) throw new NotFound('Branch not found');
    const clash = await this.repo.findBranchByName(branch.project_id, name);
    if (clash && clash.id !== branchId) throw new Conflict(PROJECT_MESSAGES.branchExists);
    await this.repo.renameBranch(branchId, name, this.now());
    return this.branchSummary(ownerId, branchId);
  }

  async setDefaultBranch(ownerId: string, branchId: string) {
    await this.repo.transaction(async (trx) => {
      const branch = await this.repo.findBranch(ownerId, branchId, trx);
      if (!branch) throw new NotFound('Branch not found');
      await this.repo.setDefaultBranch(branch.project_id, branchId, this.now(), trx);
    });
    return this.branchSummary(ownerId, branchId);
  }

  async deleteBranch(ownerId: string, branchId: string): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const branch = await this.repo.findBranch(ownerId, branchId, trx);
      if (!branch) throw new NotFound('Branch not found');
      if (branch.is_default) throw new Conflict(PROJECT_MESSAGES.defaultBranchDelete);
      const doomed = await this.repo.versionsOfBranch(branchId, trx);
      await this.repo.deleteBranch(branchId, trx);
      await this.repo.touchProject(branch.project_id, this.now(), trx);
      await this.cleanUpAfter(doomed, trx);
    });
  }

  /**
   * Queues removal of what deleted versions stored (originals only if nothing else uses them).
   * The keys are recorded in the deleting transaction, however many there are; a job removes
   * them in batches.
   */
  async cleanUpAfter(deleted: VersionsTable[], trx: Executor): Promise<void> {
    await queueCleanup(trx, this.deps, {
      objects: deleted.flatMap(ownedAudioKeys),
      originals: deleted.map((v) => v.original_key).filter((k): k is string => !!k),
    });
  }

  /** An owned branch, for the versions module (inside its transaction when given). */
  findOwnedBranch(
    ownerId: string,
    branchId: string,
    db?: Executor,
  ): Promise<BranchesTable | undefined> {
    return this.repo.findBranch(ownerId, branchId, db);
  }

  /** Marks a project changed (a version was added or removed). */
  touch(projectId: string, at: string, db?: Executor): Promise<void> {
    return this.repo.touchProject(projectId, at, db);
  }

  private async branchSummary(ownerId: string, branchId: string) {
    const branch = await this.repo.findBranch(ownerId, branchId);
    if (!branch) throw new NotFound('Branch not found');
    const [row] = (await this.repo.branchesWithCounts(ownerId, [branch.project_id])).filter(
      (b) => b.id === branchId,
    );
    if (!row) throw new NotFound('Branch not found');
    return toBranch(row);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

export function toBranch(row: BranchCountRow) {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    is_default: row.is_default === 1,
    version_count: row.version_count,
  };
}

function toProject(row: ProjectsTable, branches: BranchCountRow[], role: Role): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_private: row.is_private === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    owner_id: row.owner_id,
    listed: row.listed === 1,
    role,
    branches: branches.map(toBranch),
  };
}
