import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_MESSAGES } from '@takes/contract';
import { buildRepo, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { Conflict } from '../../errors';
import type { HistoryService } from './history.service';

// The commit and branch rules, on the service itself (no HTTP), wired as the app wires it.
describe('HistoryService', () => {
  let t: TestApp;
  let history: HistoryService;
  let ownerId: string;
  let repoId: string;

  beforeEach(async () => {
    t = await createTestApp();
    history = t.services.history;
    const db = t.deps.database.db;
    ownerId = (await buildUser(db)).id;
    repoId = (await buildRepo(db, ownerId)).id;
  });
  afterEach(() => t.close());

  it('makes a branch on its first commit, and the first branch becomes the default', async () => {
    const first = await history.createCommit(ownerId, repoId, { branch: 'mix', message: 'one' });
    expect(first.parent_sha).toBeNull();
    await history.createCommit(ownerId, repoId, { branch: 'master', message: 'two' });
    const branches = await history.branches(ownerId, repoId);
    expect(branches.map((b) => [b.name, b.is_default, b.commit_count])).toEqual([
      ['mix', true, 1],
      ['master', false, 1],
    ]);
    expect(branches[0]?.head_sha).toBe(first.sha);
  });

  it('moves the head with compare-and-set: a stale parent is a conflict', async () => {
    const a = await history.createCommit(ownerId, repoId, { branch: 'main', message: 'a' });
    const b = await history.createCommit(ownerId, repoId, {
      branch: 'main',
      message: 'b',
      parent: a.sha,
    });
    expect(b.parent_sha).toBe(a.sha);
    const stale = history.createCommit(ownerId, repoId, {
      branch: 'main',
      message: 'c',
      parent: a.sha,
    });
    await expect(stale).rejects.toBeInstanceOf(Conflict);
    await expect(stale).rejects.toThrow(REPO_MESSAGES.parentNotOnBranch);
    const [main] = await history.branches(ownerId, repoId);
    expect(main?.head_sha).toBe(b.sha);
    expect(main?.commit_count).toBe(2);
  });
});
