import { createHash, randomUUID } from 'node:crypto';
import { REPO_MESSAGES, type Patch, type RepoBranch, type TimelineCommit } from '@takes/contract';
import type { Clock } from '../../clock';
import type { RepoBranchesTable, RepoCommitsTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, NotFound } from '../../errors';
import { toCommit, toRepoBranch } from './repos.presenter';
import type { Executor, ReposRepo } from './repos.repo';
import { NOT_FOUND, type AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';

export interface HistoryDeps {
  access: AccessPolicy;
  repo: ReposRepo;
  clock: Clock;
  /** Records each commit ('repo.committed') in its transaction. */
  activity: ActivityLog;
}

export interface CommitInput {
  branch: string;
  message: string;
  sha?: string | undefined;
  parent?: string | null;
}

/**
 * A repository's history: branches, commits and legacy patches. A repository's first branch
 * becomes its default; a branch is made by its first commit; a head moves only from the value
 * the committer saw (compare-and-set), so a stale parent is a conflict, never a lost commit.
 */
export class HistoryService {
  private readonly repo: ReposRepo;

  constructor(private readonly deps: HistoryDeps) {
    this.repo = deps.repo;
  }

  async branches(userId: string, repoId: string): Promise<RepoBranch[]> {
    await this.deps.access.repository(userId, repoId, 'view');
    const rows = await this.repo.branchesWithCounts(repoId);
    return rows.map(toRepoBranch);
  }

  async createBranch(
    userId: string,
    repoId: string,
    name: string,
    from?: string,
  ): Promise<RepoBranch> {
    await this.deps.access.repository(userId, repoId, 'manageBranches');
    await this.repo.transaction(async (trx) => {
      if (!(await this.repo.repoById(repoId, trx))) throw new NotFound(NOT_FOUND.repo);
      let head: string | null = null;
      if (from) {
        const source = await this.repo.findBranch(repoId, from, trx);
        if (!source) throw new NotFound(REPO_MESSAGES.branchNotFound);
        head = source.head_sha;
      }
      if (await this.repo.findBranch(repoId, name, trx))
        throw new Conflict(REPO_MESSAGES.branchExists);
      await this.insertBranch(trx, repoId, name, head);
    });
    const branch = (await this.repo.branchesWithCounts(repoId))
      .map(toRepoBranch)
      .find((b) => b.name === name);
    if (!branch) throw new NotFound(REPO_MESSAGES.branchNotFound);
    return branch;
  }

  async commits(
    userId: string,
    repoId: string,
    branchName: string | undefined,
    limit: number,
  ): Promise<TimelineCommit[]> {
    await this.deps.access.repository(userId, repoId, 'view');
    const branch = branchName
      ? await this.repo.findBranch(repoId, branchName)
      : await this.repo.defaultBranch(repoId);
    if (!branch) {
      if (!branchName) return [];
      throw new NotFound(REPO_MESSAGES.branchNotFound);
    }
    const rows = await this.repo.commitsOf(branch.id, limit);
    return rows.map((c) => toCommit(c, branch.name, !!c.has_bounce));
  }

  /**
   * Creates a commit on a branch (the branch too, when it is new: the repository's first
   * branch becomes its default). The head moves only if it is still what the caller saw.
   */
  async createCommit(userId: string, repoId: string, input: CommitInput): Promise<TimelineCommit> {
    await this.deps.access.repository(userId, repoId, 'publish');
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await this.repo.transaction((trx) =>
          this.insertCommit(trx, repoId, input, userId),
        );
        return toCommit(row, input.branch, false);
      } catch (error) {
        // Two first commits racing to create one branch: the loser tries again once.
        if (attempt < 3 && isUniqueViolation(error) && !input.sha) continue;
        if (isUniqueViolation(error)) throw new Conflict(REPO_MESSAGES.shaExists);
        throw error;
      }
    }
  }

  /**
   * The commit itself, inside the caller's transaction (publishing makes one too). The caller has
   * asked the access policy for 'publish' on the repository; a repository deleted meanwhile is
   * NotFound.
   */
  async insertCommit(
    trx: Executor,
    repoId: string,
    input: CommitInput,
    actorId: string,
  ): Promise<RepoCommitsTable> {
    if (!(await this.repo.repoById(repoId, trx))) throw new NotFound(NOT_FOUND.repo);
    const now = this.now();
    const branch =
      (await this.repo.findBranch(repoId, input.branch, trx)) ??
      (await this.insertBranch(trx, repoId, input.branch, null));
    const parent = input.parent === undefined ? branch.head_sha : input.parent;
    if (input.parent !== undefined && input.parent !== branch.head_sha)
      throw new Conflict(REPO_MESSAGES.parentNotOnBranch, { code: 'stale_head' });
    const sha =
      input.sha ??
      createHash('sha1')
        .update(`${repoId}\n${parent ?? ''}\n${input.branch}\n${input.message}\n${now}\n`)
        .update(randomUUID())
        .digest('hex');
    const row: RepoCommitsTable = {
      id: randomUUID(),
      repo_id: repoId,
      branch_id: branch.id,
      sha,
      parent_sha: parent,
      message: input.message,
      seq: (await this.repo.lastSeq(repoId, trx)) + 1,
      created_at: now,
    };
    await this.repo.insertCommit(row, trx);
    // Moves the head only from the value read above: a concurrent commit makes this miss.
    if (!(await this.repo.moveHead(branch.id, branch.head_sha, sha, now, trx)))
      throw new Conflict(REPO_MESSAGES.parentNotOnBranch, { code: 'stale_head' });
    await this.repo.touch(repoId, now, trx);
    await this.deps.activity.record(trx, {
      kind: 'repo.committed',
      repoId,
      actor: { userId: actorId },
      targetId: row.id,
      data: { sha, message: input.message, branch_name: input.branch },
    });
    return row;
  }

  /** Legacy patches and commits of every branch, as patches, newest first. */
  async patches(
    userId: string,
    repoId: string,
    limit: number,
    offset: number,
  ): Promise<{ data: Patch[]; total: number }> {
    await this.deps.access.repository(userId, repoId, 'view');
    const rows = await this.repo.patchesAndCommits(repoId);
    rows.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
    return { data: rows.slice(offset, offset + limit), total: rows.length };
  }

  async createPatch(
    userId: string,
    repoId: string,
    input: { message?: string | null | undefined; patch_hash?: string | undefined },
  ): Promise<Patch> {
    await this.deps.access.repository(userId, repoId, 'publish');
    const now = this.now();
    const patch_hash =
      input.patch_hash ??
      createHash('sha1')
        .update(`${repoId}\n${input.message ?? ''}\n${now}\n${randomUUID()}`)
        .digest('hex');
    try {
      await this.repo.transaction(async (trx) => {
        await this.repo.insertPatch(
          {
            id: randomUUID(),
            repo_id: repoId,
            patch_hash,
            message: input.message ?? null,
            created_at: now,
          },
          trx,
        );
        await this.repo.touch(repoId, now, trx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(REPO_MESSAGES.shaExists);
      throw error;
    }
    return { patch_hash, message: input.message ?? null, timestamp: now };
  }

  /** A new branch; the repository's first becomes its default. */
  private async insertBranch(
    trx: Executor,
    repoId: string,
    name: string,
    head: string | null,
  ): Promise<RepoBranchesTable> {
    const now = this.now();
    const hasDefault = await this.repo.defaultBranch(repoId, trx);
    const row: RepoBranchesTable = {
      id: randomUUID(),
      repo_id: repoId,
      name,
      is_default: hasDefault ? 0 : 1,
      head_sha: head,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insertBranch(row, trx);
    await this.repo.touch(repoId, now, trx);
    return row;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
