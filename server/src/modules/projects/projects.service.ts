import { randomUUID } from 'node:crypto';
import {
  PROJECT_MESSAGES,
  type BranchWithVersions,
  type Project,
  type Role,
  type SharedProject,
  type Version,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { Branch, ProjectRow } from '../../db/schema';
import { Conflict, Invalid, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import { ownedAudioKeys, queueCleanup, queueVersionsCleanup } from '../audio';
import type { Executor, ProjectsRepo } from './projects.repo';
import { toBranch, toProject } from './project-view';
import { NOT_FOUND, type AccessPolicy, type Action } from '../access';
import { avatarUrl } from '../profiles';
import { memberName, UNKNOWN_PERSON } from '../people';
import type { ActivityLog } from '../activity';

export const DEFAULT_BRANCH = 'main';

export interface ProjectsDeps {
  /** The one access policy: asked before touching any project's objects. */
  access: AccessPolicy;
  repo: ProjectsRepo;
  clock: Clock;
  jobs: JobQueue;
  /** Records branch and project events in their transactions. */
  activity: ActivityLog;
  /**
   * The versions module's listing of branches' versions (its `VersionsService.ofBranches`).
   * Reached through a function because it is built after this service (it needs projects for
   * its branches), and named by shape so the two modules do not import each other.
   */
  versions: () => { ofBranches(branchIds: string[]): Promise<Version[]> };
}

/**
 * Projects and branches: who may do what is the access policy's answer (asked first by every
 * method), then rows are read and written by id. A project is made with its default branch
 * `main`; branch names are unique in a project; the default branch cannot be deleted.
 */
export class ProjectsService {
  private readonly repo: ProjectsRepo;

  constructor(private readonly deps: ProjectsDeps) {
    this.repo = deps.repo;
  }

  /** 'Your Projects': the projects the user owns, newest first. */
  async list(
    userId: string,
    page: { limit?: number | undefined; after?: string | undefined } = {},
  ): Promise<Project[]> {
    let after: { updated_at: string; id: string } | undefined;
    if (page.after !== undefined) {
      const found = await this.repo.findProject(page.after);
      if (!found || found.owner_id !== userId) throw new Invalid(PROJECT_MESSAGES.unknownCursor);
      after = found;
    }
    const owned = await this.repo.listOwned(userId, { limit: page.limit, after });
    return owned.map(({ project, branches }) => toProject(project, branches, 'owner'));
  }

  /** 'Shared with you': projects others own that the user is a member of, newest first. */
  async listShared(userId: string): Promise<SharedProject[]> {
    const projects = await this.repo.listShared(userId);
    const branches = byProject(await this.repo.branchesWithCounts(projects.map((p) => p.id)));
    return projects.map((p) => ({
      ...toProject(p, branches.get(p.id) ?? [], p.role),
      owner: {
        id: p.owner_id,
        name:
          memberName({
            display_name: p.owner_display_name,
            user_name: p.owner_user_name,
            email: p.owner_email,
          }) ?? UNKNOWN_PERSON,
        avatar_url: p.owner_avatar_key ? avatarUrl(p.owner_id, p.owner_profile_updated_at) : null,
      },
    }));
  }

  async get(userId: string, projectId: string): Promise<Project> {
    const { role } = await this.deps.access.project(userId, projectId, 'view');
    return this.read(projectId, role);
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
    return this.read(projectId, 'owner');
  }

  /**
   * Renames, describes (owner: 'rename') and lists in search engines (owner: 'changePrivacy').
   * A body with nothing in it only needs what renaming needs.
   */
  async update(
    userId: string,
    projectId: string,
    input: {
      name?: string | undefined;
      description?: string | null | undefined;
      listed?: boolean | undefined;
    },
  ): Promise<Project> {
    const actions: Action[] = [];
    if (input.name !== undefined || input.description !== undefined || input.listed === undefined)
      actions.push('rename');
    if (input.listed !== undefined) actions.push('changePrivacy');
    let role: Role = 'owner';
    for (const action of actions)
      ({ role } = await this.deps.access.project(userId, projectId, action));
    const changes: Partial<ProjectRow> = { updated_at: this.now() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description || null;
    if (input.listed !== undefined) changes.listed = input.listed ? 1 : 0;
    await this.repo.transaction(async (trx) => {
      const before = await this.repo.findProject(projectId, trx);
      if (!before || !(await this.repo.updateProject(projectId, changes, trx)))
        throw new NotFound(NOT_FOUND.project);
      if (input.name !== undefined && input.name !== before.name)
        await this.deps.activity.record(trx, {
          kind: 'project.renamed',
          projectId,
          actor: { userId },
          targetId: projectId,
          data: { old_name: before.name, new_name: input.name, project_name: input.name },
        });
    });
    return this.read(projectId, role);
  }

  /** 'Make public' / 'Make private' (owner). Access through the public page follows at once. */
  async togglePrivacy(userId: string, projectId: string): Promise<Project> {
    const grant = await this.deps.access.project(userId, projectId, 'changePrivacy');
    await this.repo.transaction(async (trx) => {
      await this.repo.updateProject(
        projectId,
        { is_private: grant.isPrivate ? 0 : 1, updated_at: this.now() },
        trx,
      );
      await this.deps.activity.record(trx, {
        kind: grant.isPrivate ? 'project.made_public' : 'project.made_private',
        projectId,
        actor: { userId },
        targetId: projectId,
      });
    });
    return this.read(projectId, grant.role);
  }

  /** Removes the project, its branches and versions, then their stored audio once unreferenced. */
  async delete(userId: string, projectId: string): Promise<void> {
    await this.deps.access.project(userId, projectId, 'delete');
    await this.repo.transaction(async (trx) => {
      const doomed = await this.repo.versionsOfProject(projectId, trx);
      const guests = await this.repo.guestFilesAudio({ projectId }, trx);
      // Gone meanwhile (another delete won): answered like a missing project.
      if (!(await this.repo.deleteProject(projectId, trx))) throw new NotFound(NOT_FOUND.project);
      await queueVersionsCleanup(trx, this.deps, doomed);
      await this.queueGuestFilesCleanup(trx, guests);
    });
  }

  async listBranches(userId: string, projectId: string): Promise<BranchWithVersions[]> {
    await this.deps.access.project(userId, projectId, 'view');
    const branches = await this.repo.branchesWithCounts([projectId]);
    const versions = await this.deps.versions().ofBranches(branches.map((b) => b.id));
    return branches.map((b) => ({
      ...toBranch(b),
      versions: versions.filter((v) => v.branch_id === b.id),
    }));
  }

  async createBranch(userId: string, projectId: string, name: string) {
    await this.deps.access.project(userId, projectId, 'manageBranches');
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
        await this.deps.activity.record(trx, {
          kind: 'branch.created',
          projectId,
          actor: { userId },
          targetId: id,
          data: { branch_id: id, branch_name: name },
        });
      });
    } catch (error) {
      // Two creates raced past the check above; the unique constraint decided.
      if (await this.repo.findBranchByName(projectId, name))
        throw new Conflict(PROJECT_MESSAGES.branchExists);
      throw error;
    }
    return this.branchSummary(id);
  }

  async renameBranch(userId: string, branchId: string, name: string) {
    const { projectId } = await this.deps.access.branch(userId, branchId, 'manageBranches');
    const clash = await this.repo.findBranchByName(projectId, name);
    if (clash && clash.id !== branchId) throw new Conflict(PROJECT_MESSAGES.branchExists);
    await this.repo.transaction(async (trx) => {
      const before = await this.repo.findBranch(branchId, trx);
      if (!before) throw new NotFound(NOT_FOUND.branch);
      await this.repo.renameBranch(branchId, name, this.now(), trx);
      if (before.name !== name)
        await this.deps.activity.record(trx, {
          kind: 'branch.renamed',
          projectId,
          actor: { userId },
          targetId: branchId,
          data: { branch_id: branchId, branch_name: name, old_name: before.name, new_name: name },
        });
    });
    return this.branchSummary(branchId);
  }

  async setDefaultBranch(userId: string, branchId: string) {
    const { projectId } = await this.deps.access.branch(userId, branchId, 'manageBranches');
    await this.repo.transaction(async (trx) => {
      // Checked again inside the transaction: the branch may have gone meanwhile.
      const branch = await this.repo.findBranch(branchId, trx);
      if (!branch) throw new NotFound(NOT_FOUND.branch);
      await this.repo.setDefaultBranch(projectId, branchId, this.now(), trx);
      if (branch.is_default !== 1)
        await this.deps.activity.record(trx, {
          kind: 'branch.default_set',
          projectId,
          actor: { userId },
          targetId: branchId,
          data: { branch_id: branchId, branch_name: branch.name },
        });
    });
    return this.branchSummary(branchId);
  }

  async deleteBranch(userId: string, branchId: string): Promise<void> {
    await this.deps.access.branch(userId, branchId, 'manageBranches');
    await this.repo.transaction(async (trx) => {
      const branch = await this.repo.findBranch(branchId, trx);
      if (!branch) throw new NotFound(NOT_FOUND.branch);
      if (branch.is_default) throw new Conflict(PROJECT_MESSAGES.defaultBranchDelete);
      const doomed = await this.repo.versionsOfBranch(branchId, trx);
      const guests = await this.repo.guestFilesAudio({ branchId }, trx);
      await this.repo.deleteBranch(branchId, trx);
      await this.repo.touchProject(branch.project_id, this.now(), trx);
      await this.deps.activity.record(trx, {
        kind: 'branch.deleted',
        projectId: branch.project_id,
        actor: { userId },
        targetId: branchId,
        data: { branch_name: branch.name },
      });
      await queueVersionsCleanup(trx, this.deps, doomed);
      await this.queueGuestFilesCleanup(trx, guests);
    });
  }

  /** Guests' files waiting on what is deleted go with it (their rows by cascade): their audio. */
  private queueGuestFilesCleanup(
    trx: Executor,
    guests: { original_key: string; renditions: string; waveform: string | null }[],
  ) {
    return queueCleanup(trx, this.deps, {
      objects: guests.flatMap(ownedAudioKeys),
      originals: guests.map((g) => g.original_key),
    });
  }

  /**
   * A branch by id, for the versions module once the access policy has let the caller in (inside
   * its transaction when given, to see a branch deleted meanwhile).
   */
  branchById(branchId: string, db?: Executor): Promise<Branch | undefined> {
    return this.repo.findBranch(branchId, db);
  }

  /** Marks a project changed (a version was added or removed). */
  touch(projectId: string, at: string, db?: Executor): Promise<void> {
    return this.repo.touchProject(projectId, at, db);
  }

  /** The project with its branches, as the caller (of this role) sees it. */
  private async read(projectId: string, role: Role): Promise<Project> {
    const project = await this.repo.findProject(projectId);
    if (!project) throw new NotFound(NOT_FOUND.project);
    return toProject(project, await this.repo.branchesWithCounts([projectId]), role);
  }

  private async branchSummary(branchId: string) {
    const branch = await this.repo.findBranch(branchId);
    if (!branch) throw new NotFound(NOT_FOUND.branch);
    const [row] = (await this.repo.branchesWithCounts([branch.project_id])).filter(
      (b) => b.id === branchId,
    );
    if (!row) throw new NotFound(NOT_FOUND.branch);
    return toBranch(row);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** Branches grouped by their project, each group in the order given. */
function byProject<T extends { project_id: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.project_id);
    if (group) group.push(row);
    else groups.set(row.project_id, [row]);
  }
  return groups;
}
