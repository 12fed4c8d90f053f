import type { ReposTable } from '../../db/schema';
import { NotFound } from '../../errors';
import type { Executor, ReposRepo } from './repos.repo';

export const REPO_NOT_FOUND = 'Repository not found';

/**
 * The caller's repository, or NotFound: another person's repository answers as a missing
 * one. Every service of this module checks ownership through here first.
 */
export async function ownedRepo(
  repo: ReposRepo,
  ownerId: string,
  repoId: string,
  db?: Executor,
): Promise<ReposTable> {
  const row = await repo.owned(ownerId, repoId, db);
  if (!row) throw new NotFound(REPO_NOT_FOUND);
  return row;
}
