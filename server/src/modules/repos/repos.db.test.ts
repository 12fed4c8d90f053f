import { afterEach, describe, expect, it } from 'vitest';
import type { Bounce, RecentBounce, Repository } from '@takes/contract';
import { eventually, ORIGIN } from '../../../test/api';
import { buildProject, buildVersion, depsOf, publishBounce } from '../../../test/factories';
import {
  useRepoAudio,
  nightDrive,
  objectKeys,
  setupRepoTest,
  type RepoTestContext,
} from '../../../test/repos-setup';

// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const audio = useRepoAudio();

describe('repositories: names, covers, ownership, the recent feed and deletion', () => {
  let c: RepoTestContext;
  afterEach(async () => {
    await c.t.close();
  });

  it('creates, lists, renames and refuses duplicate or empty repository names', async () => {
    c = await setupRepoTest();
    const { owner, clock } = c;
    const createRepo = async (name: string): Promise<Repository> => {
      const response = await owner.post('/api/repos', { name });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ repo: Repository }>().repo;
    };
    const repo = await createRepo('Night Drive');
    expect(repo).toMatchObject({
      name: 'Night Drive',
      cover_url: null,
      patch_count: 0,
      bounce_count: 0,
      default_branch: null,
      pull_url: `takes://pull?repo=${repo.id}&branch=main`,
    });
    const duplicate = await owner.post('/api/repos', { name: 'night drive' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      error: 'You already have a repository with this name',
    });
    const blank = await owner.post('/api/repos', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'Repository name is required' });

    clock.advance(1000);
    const second = await createRepo('Acoustic Set');
    const list = (await owner.get('/api/audio-git/repositories')).json<{ data: Repository[] }>();
    expect(list.data.map((r) => r.name)).toEqual(['Acoustic Set', 'Night Drive']);
    const one = (await owner.get(`/api/audio-git/repositories/${repo.id}`)).json<{
      data: Repository;
    }>();
    expect(one.data.id).toBe(repo.id);

    const renamed = await owner.patch(`/api/repos/${second.id}`, { name: 'Acoustic Sessions' });
    expect(renamed.json<{ repo: Repository }>().repo.name).toBe('Acoustic Sessions');
    expect((await owner.delete(`/api/repos/${second.id}`)).statusCode).toBe(204);
    expect((await owner.get(`/api/repos/${second.id}`)).statusCode).toBe(404);
  });

  it("answers another user's repository, bounces and publish exactly like missing ones", async () => {
    c = await setupRepoTest();
    const { t, stranger } = c;
    const repo = await nightDrive(c);
    const bounce = await publishBounce(depsOf(t), repo.id, audio.wavA);
    const theirs = [
      `/api/repos/${repo.id}`,
      `/api/audio-git/repositories/${repo.id}`,
      `/api/audio-git/repositories/${repo.id}/patches`,
      `/api/repos/${repo.id}/branches`,
      `/api/repos/${repo.id}/commits`,
      `/api/repos/${repo.id}/bounces`,
      `/api/repos/${repo.id}/bounces/${bounce.id}`,
      `/api/repos/${repo.id}/bounces/${bounce.id}/stream`,
      `/api/repos/${repo.id}/commits/${bounce.commit_sha}/bounces`,
      `/api/repos/${repo.id}/cover`,
    ];
    for (const url of theirs) {
      const response = await stranger.get(url);
      expect(response.statusCode, url).toBe(404);
    }
    const missing = (
      await stranger.get('/api/repos/00000000-0000-0000-0000-000000000000')
    ).json<unknown>();
    expect((await stranger.get(`/api/repos/${repo.id}`)).json()).toEqual(missing);

    expect(
      (
        await stranger.post('/api/bounces/publish', {
          repo_id: repo.id,
          branch: 'main',
          filename: 'x.wav',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await stranger.post('/api/bounces/complete', {
          repo_id: repo.id,
          branch: 'main',
          filename: 'Mix A.wav',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await stranger.post(`/api/repos/${repo.id}/commits`, { branch: 'main', message: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await stranger.delete(`/api/repos/${repo.id}/bounces/${bounce.id}`)).statusCode).toBe(
      404,
    );
    expect((await stranger.delete(`/api/repos/${repo.id}`)).statusCode).toBe(404);
    expect((await stranger.get('/api/audio-git/repositories')).json()).toEqual({ data: [] });
    expect((await stranger.get('/api/bounces/recent?all=true')).json()).toEqual({ bounces: [] });
    // Without a session nothing answers.
    expect((await t.app.inject({ method: 'GET', url: `/api/repos/${repo.id}` })).statusCode).toBe(
      401,
    );
  });

  it('changes the cover (checked by content) and serves it', async () => {
    c = await setupRepoTest();
    const { t, owner, ownerCookie } = c;
    const repo = await nightDrive(c);
    const send = (content: Buffer, field = 'cover_image') => {
      const boundary = '----takescover';
      return t.app.inject({
        method: 'POST',
        url: `/api/repos/${repo.id}/cover`,
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          content,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        headers: {
          cookie: ownerCookie,
          origin: ORIGIN,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
    };
    const ok = await send(PNG);
    expect(ok.statusCode, ok.body).toBe(200);
    const { cover_url: coverUrl } = ok.json<{ cover_url: string }>();
    expect(coverUrl).toMatch(new RegExp(`^/api/repos/${repo.id}/cover\\?v=`));
    const image = await owner.get(coverUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    const listed = (await owner.get(`/api/repos/${repo.id}`)).json<{ repo: Repository }>().repo;
    expect(listed.cover_url).toBe(coverUrl);

    const notImage = await send(Buffer.from('just text, not an image at all'));
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json()).toMatchObject({ error: 'The cover must be a PNG, JPEG or WebP image' });
    const big = await send(
      Buffer.concat([PNG.subarray(0, 16), Buffer.alloc(5 * 1024 * 1024 + 10)]),
    );
    expect(big.statusCode).toBe(413);
    expect(
      (await owner.get(`/api/repos/${repo.id}`)).json<{ repo: Repository }>().repo.cover_url,
    ).toBe(coverUrl);
  });

  it('the recent feed lists bounces newest first and, with all=true, legacy versions too', async () => {
    c = await setupRepoTest();
    const { t, owner, ownerId } = c;
    const db = t.deps.database.db;
    const repo = await nightDrive(c);
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    await publishBounce(depsOf(t), repo.id, audio.wavA, {
      overrides: { title: 'Mix', created_at: at(0) },
    });
    const { project, branch } = await buildProject(db, ownerId, { name: 'Mix B' });
    await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: audio.wavB, overrides: { created_at: at(1) } },
    );
    await publishBounce(depsOf(t), repo.id, audio.wavB, {
      overrides: { title: 'Mix', created_at: at(2) },
    });

    const bouncesOnly = (await owner.get('/api/bounces/recent?limit=10')).json<{
      bounces: RecentBounce[];
    }>().bounces;
    expect(bouncesOnly.map((b) => b.kind)).toEqual(['bounce', 'bounce']);
    const all = (await owner.get('/api/bounces/recent?limit=50&all=true')).json<{
      bounces: RecentBounce[];
    }>().bounces;
    expect(all.map((b) => b.kind)).toEqual(['bounce', 'version', 'bounce']);
    expect(all[1]).toMatchObject({ project_name: 'Mix B', version_number: 1 });
    expect(all[0]).toMatchObject({ repo_id: repo.id, repo_name: 'Night Drive', title: 'Mix' });
    expect(
      (await owner.get('/api/bounces/recent?limit=1&all=true')).json<{
        bounces: RecentBounce[];
      }>().bounces,
    ).toHaveLength(1);
  });

  it('deleting a repository removes its bounces and their stored audio', async () => {
    c = await setupRepoTest();
    const { t, owner } = c;
    const repo = await nightDrive(c);
    const bounce = await publishBounce(depsOf(t), repo.id, audio.wavA);
    expect(
      (await owner.get(`/api/repos/${repo.id}/bounces/${bounce.id}`)).json<{ bounce: Bounce }>()
        .bounce.status,
    ).toBe('completed');
    expect((await objectKeys(t, 'renditions/')).length).toBe(2);
    expect((await owner.delete(`/api/repos/${repo.id}`)).statusCode).toBe(204);
    await t.deps.jobs.startWorking();
    await eventually(async () => (await objectKeys(t, 'originals/')).length === 0);
    await eventually(async () => (await objectKeys(t, 'renditions/')).length === 0);
    expect(await objectKeys(t, 'peaks/')).toEqual([]);
  });
});
