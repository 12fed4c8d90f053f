import { afterEach, describe, expect, it } from 'vitest';
import type { Repository, RepoBranch, TimelineCommit } from '@takes/contract';
import { buildCommit } from '../../../test/factories';
import { nightDrive, setupRepoTest, type RepoTestContext } from '../../../test/repos-setup';

describe('commits, branches and legacy patches over HTTP', () => {
  let c: RepoTestContext;
  afterEach(async () => {
    await c.t.close();
  });

  it('commits create their branch (the first becomes default), move the head and refuse a stale parent', async () => {
    c = await setupRepoTest();
    const { owner, clock } = c;
    const repo = await nightDrive(c);
    expect((await owner.get(`/api/repos/${repo.id}/commits`)).json()).toEqual({ commits: [] });

    const first = await owner.post(`/api/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'Rough mix',
    });
    expect(first.statusCode, first.body).toBe(201);
    const c1 = first.json<{ commit: TimelineCommit }>().commit;
    expect(c1).toMatchObject({ message: 'Rough mix', parent_sha: null, branch: 'main' });
    expect(c1.sha).toMatch(/^[0-9a-f]{40}$/);

    clock.advance(1000);
    const c2 = (
      await owner.post(`/api/repos/${repo.id}/commits`, {
        branch: 'main',
        message: 'Louder vocals',
        parent: c1.sha,
      })
    ).json<{ commit: TimelineCommit }>().commit;
    expect(c2.parent_sha).toBe(c1.sha);

    const stale = await owner.post(`/api/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'From an old checkout',
      parent: c1.sha,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      error: 'The parent commit is not the head of this branch; pull and try again',
    });

    const own = 'a'.repeat(40);
    const withSha = await owner.post(`/api/repos/${repo.id}/commits`, {
      branch: 'alt-mix',
      message: 'Alternative',
      sha: own,
    });
    expect(withSha.json<{ commit: TimelineCommit }>().commit.sha).toBe(own);
    const again = await owner.post(`/api/repos/${repo.id}/commits`, {
      branch: 'alt-mix',
      message: 'Same sha',
      sha: own,
    });
    expect(again.statusCode).toBe(409);
    const badSha = await owner.post(`/api/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'x',
      sha: 'xyz',
    });
    expect(badSha.statusCode).toBe(400);
    const noMessage = await owner.post(`/api/repos/${repo.id}/commits`, {
      branch: 'main',
      message: ' ',
    });
    expect(noMessage.json()).toMatchObject({ error: 'Please enter a commit message' });
    const badBranch = await owner.post(`/api/repos/${repo.id}/commits`, {
      branch: 'has space',
      message: 'x',
    });
    expect(badBranch.statusCode).toBe(400);

    const branches = (await owner.get(`/api/repos/${repo.id}/branches`)).json<{
      branches: RepoBranch[];
    }>().branches;
    expect(branches).toMatchObject([
      { name: 'main', is_default: true, head_sha: c2.sha, commit_count: 2 },
      { name: 'alt-mix', is_default: false, head_sha: own, commit_count: 1 },
    ]);
    const log = (await owner.get(`/api/repos/${repo.id}/commits?branch=main`)).json<{
      commits: TimelineCommit[];
    }>().commits;
    expect(log.map((c) => c.message)).toEqual(['Louder vocals', 'Rough mix']);
    expect((await owner.get(`/api/repos/${repo.id}/commits?branch=nope`)).statusCode).toBe(404);

    const branched = await owner.post(`/api/repos/${repo.id}/branches`, {
      name: 'live',
      from: 'main',
    });
    expect(branched.json<{ branch: RepoBranch }>().branch).toMatchObject({
      name: 'live',
      head_sha: c2.sha,
      is_default: false,
    });
    const exists = await owner.post(`/api/repos/${repo.id}/branches`, { name: 'live' });
    expect(exists.statusCode).toBe(409);

    const listed = (await owner.get(`/api/repos/${repo.id}`)).json<{ repo: Repository }>().repo;
    expect(listed).toMatchObject({ patch_count: 3, default_branch: 'main' });
  });

  it('two commits racing onto one head: one lands, the other is refused, none is lost silently', async () => {
    c = await setupRepoTest();
    const { t, owner } = c;
    const repo = await nightDrive(c);
    const { commit: base } = await buildCommit(t.deps.database.db, repo.id, { message: 'Base' });
    const results = await Promise.all(
      ['Left', 'Right'].map((message) =>
        owner.post(`/api/repos/${repo.id}/commits`, { branch: 'main', message, parent: base.sha }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const log = (await owner.get(`/api/repos/${repo.id}/commits?branch=main`)).json<{
      commits: TimelineCommit[];
    }>().commits;
    expect(log).toHaveLength(2);
    const branch = (await owner.get(`/api/repos/${repo.id}/branches`)).json<{
      branches: RepoBranch[];
    }>().branches[0];
    expect(branch?.head_sha).toBe(log[0]?.sha);
  });

  it('lists legacy patches with commits as patches, and a repository with only patches has no branches', async () => {
    c = await setupRepoTest();
    const { owner, clock } = c;
    const repo = await nightDrive(c);
    const patch = await owner.post(`/api/audio-git/repositories/${repo.id}/patches`, {
      message: 'Imported from the old app',
    });
    expect(patch.statusCode, patch.body).toBe(201);
    expect((await owner.get(`/api/repos/${repo.id}/branches`)).json()).toEqual({ branches: [] });
    const patches = (await owner.get(`/api/audio-git/repositories/${repo.id}/patches`)).json<{
      data: { patch_hash: string; message: string }[];
      total: number;
    }>();
    expect(patches.total).toBe(1);
    expect(patches.data[0]?.message).toBe('Imported from the old app');

    clock.advance(1000);
    await owner.post(`/api/repos/${repo.id}/commits`, { branch: 'main', message: 'First commit' });
    const page = (
      await owner.get(`/api/audio-git/repositories/${repo.id}/patches?limit=1&offset=0`)
    ).json<{ data: { message: string }[]; total: number }>();
    expect(page).toMatchObject({ total: 2, data: [{ message: 'First commit' }] });
    const rest = (
      await owner.get(`/api/audio-git/repositories/${repo.id}/patches?limit=1&offset=1`)
    ).json<{ data: { message: string }[] }>();
    expect(rest.data[0]?.message).toBe('Imported from the old app');
  });
});
