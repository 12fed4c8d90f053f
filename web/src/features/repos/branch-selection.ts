import type { Patch, RepoBranch, TimelineCommit } from '@takes/contract';

/** With no branches but legacy patches, the page shows a pseudo-branch main. */
export const PSEUDO_BRANCH = 'main';

export interface BranchItem {
  name: string;
  isDefault: boolean;
  /** The pseudo-branch over legacy patches: it has no page of its own. */
  pseudo: boolean;
  commitCount: number | null;
  bounceCount: number | null;
}

export interface BranchView {
  items: BranchItem[];
  selected: string | null;
  /** Where the commit history comes from. */
  source: 'commits' | 'patches' | 'none';
}

/**
 * The branch list and the selected branch: the chosen one if it exists, else the default
 * branch, else the first. Without branches, `main` over the patches when there are any.
 */
export function resolveBranchView(
  branches: readonly RepoBranch[],
  patchCount: number,
  choice: string | undefined,
): BranchView {
  if (branches.length > 0) {
    const selected =
      branches.find((b) => b.name === choice) ?? branches.find((b) => b.is_default) ?? branches[0];
    return {
      items: branches.map((b) => ({
        name: b.name,
        isDefault: b.is_default,
        pseudo: false,
        commitCount: b.commit_count,
        bounceCount: b.bounce_count,
      })),
      selected: selected?.name ?? null,
      source: 'commits',
    };
  }
  if (patchCount > 0) {
    return {
      items: [
        {
          name: PSEUDO_BRANCH,
          isDefault: true,
          pseudo: true,
          commitCount: patchCount,
          bounceCount: null,
        },
      ],
      selected: PSEUDO_BRANCH,
      source: 'patches',
    };
  }
  return { items: [], selected: null, source: 'none' };
}

/** A legacy patch shown as a commit of the pseudo-branch. */
export function patchAsCommit(patch: Patch): TimelineCommit {
  return {
    sha: patch.patch_hash,
    message: patch.message,
    parent_sha: null,
    branch: PSEUDO_BRANCH,
    created_at: patch.timestamp,
    has_bounce: false,
  };
}

/** A sha is shown as its first 12 characters. */
export function shortSha(sha: string): string {
  return sha.slice(0, 12);
}
