import { REPO_MESSAGES } from '@takes/contract';
import type { BouncesTable, RepoBranchesTable } from '../../db/schema';
import { NotFound } from '../../errors';
import type { ActivityLog, Actor } from '../activity';
import type { HistoryService } from './history.service';
import type { Executor, ReposRepo } from './repos.repo';

/** A bounce's own columns, before its place (repository, branch, commit) is found. */
export type BounceContent = Omit<BouncesTable, 'repo_id' | 'branch_id' | 'commit_id'>;

export interface BounceRowsDeps {
  repo: ReposRepo;
  history: HistoryService;
  activity: ActivityLog;
}

/** Where a published bounce went. */
export interface PlacedBounce {
  branchId: string;
  branchName: string;
  sha: string | null;
}

/**
 * A published bounce's rows, in the caller's transaction: on the commit named (and its branch),
 * else on the branch's head, else on a new commit 'Publish {title}' (its branch made if
 * missing, by `committerId`); then the bounce row, the repository touched and
 * 'bounce.published' recorded. Publishing and a guest's file added as a bounce both come here.
 */
export async function insertPublishedBounce(
  deps: BounceRowsDeps,
  trx: Executor,
  input: {
    repoId: string;
    branchName: string;
    commitSha: string | null;
    committerId: string;
    actor: Actor;
    bounce: BounceContent;
  },
): Promise<PlacedBounce> {
  const { repo } = deps;
  const { repoId, branchName, bounce } = input;
  let branch = await repo.findBranch(repoId, branchName, trx);
  let commitId: string | undefined;
  let commitSha: string | null = null;
  if (input.commitSha) {
    const commit = await repo.commitBySha(repoId, input.commitSha, trx);
    if (!commit) throw new NotFound(REPO_MESSAGES.commitNotFound);
    commitId = commit.id;
    commitSha = input.commitSha;
    if (!branch || branch.id !== commit.branch_id)
      branch = await repo.branchById(commit.branch_id, trx);
  } else if (branch?.head_sha) {
    const head = await repo.commitBySha(repoId, branch.head_sha, trx);
    commitId = head?.id;
    commitSha = head ? branch.head_sha : null;
  }
  if (!commitId || !branch) {
    const commit = await deps.history.insertCommit(
      trx,
      repoId,
      { branch: branchName, message: `Publish ${bounce.title}` },
      input.committerId,
    );
    commitId = commit.id;
    commitSha = commit.sha;
    branch = await repo.findBranch(repoId, branchName, trx);
  }
  if (!branch) throw new NotFound(REPO_MESSAGES.branchNotFound);
  await repo.insertBounce(
    { ...bounce, repo_id: repoId, branch_id: branch.id, commit_id: commitId },
    trx,
  );
  await repo.touch(repoId, bounce.created_at, trx);
  await deps.activity.record(trx, {
    kind: 'bounce.published',
    repoId,
    actor: input.actor,
    targetId: bounce.id,
    data: { bounce_name: bounce.title, sha: commitSha, branch_name: branch.name },
  });
  return { branchId: branch.id, branchName: branch.name, sha: commitSha };
}

/**
 * What another module may do with a repository's bounces without the repos module's SQL: find
 * a branch by name, and publish a bounce on a branch it knows by id (a guest's file added as a
 * bounce: 'Add as bounce').
 */
export class BounceRows {
  constructor(private readonly deps: BounceRowsDeps) {}

  findBranch(repoId: string, name: string): Promise<RepoBranchesTable | undefined> {
    return this.deps.repo.findBranch(repoId, name);
  }

  async publishOnBranch(
    trx: Executor,
    input: {
      repoId: string;
      branchId: string;
      committerId: string;
      actor: Actor;
      bounce: BounceContent;
    },
  ): Promise<PlacedBounce> {
    const branch = await this.deps.repo.branchById(input.branchId, trx);
    if (branch.repo_id !== input.repoId) throw new NotFound(REPO_MESSAGES.branchNotFound);
    return insertPublishedBounce(this.deps, trx, {
      ...input,
      branchName: branch.name,
      commitSha: null,
    });
  }
}
