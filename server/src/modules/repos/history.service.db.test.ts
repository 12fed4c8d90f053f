import { AccessPolicy } from '../access';
import { AccessRepo } from '../access/access.repo';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_MESSAGES } from '@takes/contract';
import { buildRepo, buildUser } from '../../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import { systemClock } from '../../clock';
import { Conflict } from '../../errors';
import { HistoryService } from './history.service';
import { ReposRepo } from './repos.repo';

// The commit and branch rules, on the service itself (no HTTP).
describe('HistoryService', () => {
  let database: TestDatabase;
  let history: HistoryService;
  let ownerId: string;
  let repoId: string;

  beforeEach(async () => {
    database = await createTestDatabase();
    history = new HistoryService({
      access: new AccessPolicy(new AccessRepo(database.db)),
      repo: new ReposRepo(database.db),
      clock: systemClock,
    });
    ownerId = (await buildUser(database.db)).id;
    repoId = (await buildRepo(database.db, ownerId)).id;
  });
  afterEach(() => database.cleanup());

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
