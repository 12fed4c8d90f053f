import type { RepoBranch } from '@takes/contract';
import { describe, expect, it } from 'vitest';
import { patchAsCommit, PSEUDO_BRANCH, resolveBranchView, shortSha } from './branch-selection';

function branch(name: string, isDefault = false): RepoBranch {
  return {
    name,
    is_default: isDefault,
    head_sha: null,
    commit_count: 2,
    bounce_count: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('resolveBranchView', () => {
  const branches = [branch('develop'), branch('main', true), branch('mix/alt')];

  it('selects the default branch, else the first, unless one was chosen', () => {
    expect(resolveBranchView(branches, 0, undefined).selected).toBe('main');
    expect(resolveBranchView(branches, 0, 'mix/alt').selected).toBe('mix/alt');
    expect(resolveBranchView(branches, 0, 'gone').selected).toBe('main');
    expect(resolveBranchView([branch('a'), branch('b')], 0, undefined).selected).toBe('a');
    expect(resolveBranchView(branches, 5, undefined).source).toBe('commits');
  });

  it('uses the pseudo-branch main over legacy patches when there are no branches', () => {
    const view = resolveBranchView([], 3, undefined);
    expect(view).toMatchObject({ selected: PSEUDO_BRANCH, source: 'patches' });
    expect(view.items).toEqual([
      { name: 'main', isDefault: true, pseudo: true, commitCount: 3, bounceCount: null },
    ]);
  });

  it('has no branch at all for a new repository', () => {
    expect(resolveBranchView([], 0, undefined)).toEqual({
      items: [],
      selected: null,
      source: 'none',
    });
  });
});

describe('patchAsCommit and shortSha', () => {
  it('reads a patch as a commit of main and shortens shas to 12 characters', () => {
    const commit = patchAsCommit({
      patch_hash: 'abcdef0123456789',
      message: null,
      timestamp: '2026-01-02T00:00:00.000Z',
    });
    expect(commit).toMatchObject({
      sha: 'abcdef0123456789',
      branch: 'main',
      created_at: '2026-01-02T00:00:00.000Z',
      has_bounce: false,
    });
    expect(shortSha(commit.sha)).toBe('abcdef012345');
  });
});
