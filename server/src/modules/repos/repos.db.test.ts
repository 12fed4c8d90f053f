import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  Bounce,
  PublishResponse,
  RecentBounce,
  RepoBranch,
  Repository,
  TimelineCommit,
} from '@takes/contract';
import { api, eventually, newUser, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';

const INVALID_TYPE = 'Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.';
const TOO_LARGE =
  'File size exceeds the 500MB limit. Please upload a smaller file or contact support for assistance with very large files.';
// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let dir: string;
let wavA: string;
let wavB: string;
let mp3: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-repos-'));
  wavA = await makeAudio(dir, 'wav', 2, 'Mix A.wav');
  wavB = await makeAudio(dir, 'wav', 3, 'Mix B.wav');
  mp3 = await makeAudio(dir, 'mp3', 2, 'Rough.mp3');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Client = ReturnType<typeof api>;

describe('repositories, commits, bounces and publishing', () => {
  let t: TestApp;
  let clock: TestClock;
  afterEach(async () => {
    await t.close();
  });

  async function setup(options: { uploadMaxBytes?: number } = {}) {
    clock = new TestClock();
    t = await createTestApp({ ...options, clock });
    const ownerCookie = await newUser(t);
    return {
      owner: api(t, ownerCookie),
      ownerCookie,
      stranger: api(t, await newUser(t, 'stranger')),
    };
  }

  async function createRepo(client: Client, name = 'Night Drive'): Promise<Repository> {
    const response = await client.post('/api/repos', { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ repo: Repository }>().repo;
  }

  function put(url: string, body: Buffer, token?: string) {
    return t.app.inject({
      method: 'PUT',
      url: new URL(url).pathname,
      payload: body,
      headers: {
        'content-type': 'application/octet-stream',
        ...(token === undefined ? {} : { 'x-upsert-token': token }),
      },
    });
  }

  async function publishFile(
    client: Client,
    repoId: string,
    file: string,
    extra: { branch?: string; commitSha?: string; title?: string } = {},
  ): Promise<Bounce> {
    const branch = extra.branch ?? 'main';
    const filename = path.basename(file);
    const started = await client.post('/api/bounces/publish', {
      repoId,
      branch,
      filename,
      contentType: 'audio/wav',
      ...(extra.commitSha ? { commitSha: extra.commitSha } : {}),
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    const content = fs.readFileSync(file);
    const uploaded = await put(publish.uploadUrl, content, publish.uploadToken);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const completed = await client.post('/api/bounces/complete', {
      repoId,
      branch,
      filename,
      title: extra.title,
      mime: 'audio/wav',
      size: content.length,
      uploadId: publish.uploadId,
    });
    expect(completed.statusCode, completed.body).toBe(201);
    return completed.json<{ bounce: Bounce }>().bounce;
  }

  async function objectKeys(prefix: string): Promise<string[]> {
    return (await t.deps.storage.list(prefix)).map((o) => o.key);
  }

  it('creates, lists, renames and refuses duplicate or empty repository names', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
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
    const second = await createRepo(owner, 'Acoustic Set');
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

  it('commits create their branch (the first becomes default), move the head and refuse a stale parent', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
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
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const base = (
      await owner.post(`/api/repos/${repo.id}/commits`, { branch: 'main', message: 'Base' })
    ).json<{ commit: TimelineCommit }>().commit;
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

  it('a token used by two PUTs at once admits only one', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const p = (
      await owner.post('/api/bounces/publish', {
        repoId: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    const content = fs.readFileSync(wavA);
    const results = await Promise.all([
      put(p.uploadUrl, content, p.uploadToken),
      put(p.uploadUrl, content, p.uploadToken),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('lists legacy patches with commits as patches, and a repository with only patches has no branches', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
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

  it('publishes bounces: publish, PUT with the token, complete, processing with peaks and loudness, streaming with ranges', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const commit = (
      await owner.post(`/api/repos/${repo.id}/commits`, { branch: 'main', message: 'Mix 1' })
    ).json<{ commit: TimelineCommit }>().commit;
    const a = await publishFile(owner, repo.id, wavA, { commitSha: commit.sha, title: 'Mix' });
    expect(a).toMatchObject({
      repo_id: repo.id,
      repo_name: 'Night Drive',
      branch: 'main',
      commit_sha: commit.sha,
      title: 'Mix',
      filename: 'Mix A.wav',
      mime: 'audio/wav',
      status: 'processing',
      stream_url: `/api/repos/${repo.id}/bounces/${a.id}/stream`,
    });
    expect(a.duration).toBeCloseTo(2, 1);

    // No commit given: the bounce lands on the branch head.
    clock.advance(1000);
    const b = await publishFile(owner, repo.id, wavB);
    expect(b).toMatchObject({ commit_sha: commit.sha, title: 'Mix B' });

    await t.deps.jobs.startWorking();
    await eventually(async () => {
      const list = (await owner.get(`/api/repos/${repo.id}/bounces?branch=main`)).json<{
        bounces: Bounce[];
      }>();
      return list.bounces.every((x) => x.status === 'completed');
    });
    const done = (await owner.get(`/api/repos/${repo.id}/bounces/${a.id}`)).json<{
      bounce: Bounce;
    }>().bounce;
    expect(done.loudness?.integratedLufs).toBeLessThan(0);
    expect(done.waveform_json?.min.length).toBeGreaterThan(10);
    expect(done.waveform_json?.max.length).toBe(done.waveform_json?.min.length);
    expect(done.waveform_json?.duration).toBeCloseTo(2, 1);

    const list = (await owner.get(`/api/repos/${repo.id}/bounces`)).json<{ bounces: Bounce[] }>();
    expect(list.bounces.map((x) => x.id)).toEqual([b.id, a.id]);
    const ofCommit = (
      await owner.get(`/api/repos/${repo.id}/commits/${commit.sha.slice(0, 12)}/bounces`)
    ).json<{ bounces: Bounce[] }>();
    expect(ofCommit.bounces).toHaveLength(2);
    expect(
      (await owner.get(`/api/repos/${repo.id}/commits/${'f'.repeat(40)}/bounces`)).statusCode,
    ).toBe(404);
    const log = (await owner.get(`/api/repos/${repo.id}/commits`)).json<{
      commits: TimelineCommit[];
    }>();
    expect(log.commits[0]?.hasBounce).toBe(true);

    const size = fs.statSync(wavA).size;
    const full = await owner.get(done.stream_url);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('audio/wav');
    expect(Number(full.headers['content-length'])).toBe(size);
    const part = await owner.get(done.stream_url, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${size}`);
    expect((await owner.get(done.stream_url, { range: `bytes=${size + 10}-` })).statusCode).toBe(
      416,
    );
    const high = await owner.get(`${done.stream_url}?quality=high`);
    expect(high.statusCode).toBe(200);
    expect(high.headers['content-type']).toBe('audio/mpeg');

    const repoAfter = (await owner.get(`/api/repos/${repo.id}`)).json<{ repo: Repository }>().repo;
    expect(repoAfter).toMatchObject({ bounce_count: 2, patch_count: 1 });
  });

  it('completing without a commit on a new branch creates the branch and a commit for the bounce', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const bounce = await publishFile(owner, repo.id, mp3, { branch: 'demo' });
    expect(bounce).toMatchObject({ branch: 'demo', title: 'Rough', mime: 'audio/mpeg' });
    const log = (await owner.get(`/api/repos/${repo.id}/commits?branch=demo`)).json<{
      commits: TimelineCommit[];
    }>().commits;
    expect(log).toMatchObject([
      { message: 'Publish Rough', sha: bounce.commit_sha, hasBounce: true },
    ]);
  });

  it('refuses a missing, wrong, reused or expired upload token, and leaves nothing behind', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const content = fs.readFileSync(wavA);
    const start = async () =>
      (
        await owner.post('/api/bounces/publish', {
          repoId: repo.id,
          branch: 'main',
          filename: 'Mix A.wav',
        })
      ).json<PublishResponse>();

    const before = clock.now().getTime();
    const p = await start();
    expect(p.uploadUrl).toBe(`${ORIGIN}/api/bounces/uploads/${p.uploadId}`);
    const lifetime = new Date(p.expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(15 * 60 * 1000);
    expect(lifetime).toBeLessThan(15 * 60 * 1000 + 5000);
    const missing = await put(p.uploadUrl, content);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'The x-upsert-token header is required' });
    const wrong = await put(p.uploadUrl, content, 'not-the-token');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ error: 'This upload token is not valid for this upload' });
    expect((await put(p.uploadUrl, content, p.uploadToken)).statusCode).toBe(200);
    const reused = await put(p.uploadUrl, content, p.uploadToken);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ error: 'This upload token has already been used' });

    const late = await start();
    clock.advance(15 * 60 * 1000 + 1);
    const expired = await put(late.uploadUrl, content, late.uploadToken);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      error: 'This upload link has expired. Start the publish again.',
    });
    const unknown = await put(`${ORIGIN}/api/bounces/uploads/nope`, content, 'x');
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses an oversize PUT (413) and a non-audio PUT (415) without storing anything', async () => {
    const { owner } = await setup({ uploadMaxBytes: 50_000 });
    const repo = await createRepo(owner);
    const start = async (filename: string) =>
      (
        await owner.post('/api/bounces/publish', { repoId: repo.id, branch: 'main', filename })
      ).json<PublishResponse>();

    const declared = await owner.post('/api/bounces/publish', {
      repoId: repo.id,
      branch: 'main',
      filename: 'big.wav',
      size: 60_000,
    });
    expect(declared.statusCode).toBe(413);

    const big = await start('big.wav');
    const oversize = await put(big.uploadUrl, fs.readFileSync(wavB), big.uploadToken);
    expect(oversize.statusCode).toBe(413);
    expect(oversize.json()).toMatchObject({ error: TOO_LARGE });

    const text = await start('notes.wav');
    const notAudio = await put(
      text.uploadUrl,
      Buffer.from('These are lyrics, not audio.\n'.repeat(50)),
      text.uploadToken,
    );
    expect(notAudio.statusCode).toBe(415);
    expect(notAudio.json()).toMatchObject({ error: INVALID_TYPE });

    // RIFF/WAVE magic bytes in front of noise: caught by ffprobe.
    const fake = await start('fake.wav');
    const header = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1');
    const disguised = await put(
      fake.uploadUrl,
      Buffer.concat([header, Buffer.alloc(4000, 7)]),
      fake.uploadToken,
    );
    expect(disguised.statusCode).toBe(415);

    const complete = await owner.post('/api/bounces/complete', {
      repoId: repo.id,
      branch: 'main',
      filename: 'notes.wav',
    });
    expect(complete.statusCode).toBe(404);
    expect(complete.json()).toMatchObject({
      error: 'No uploaded file was found for this publish. Upload the file first.',
    });
    expect(await objectKeys('originals/')).toEqual([]);
    const rows = await t.deps.database.db.selectFrom('bounce_uploads').selectAll().execute();
    expect(rows.map((r) => r.filename)).toEqual([]);
    expect(fs.readdirSync(t.deps.tmpDir).filter((f) => f.startsWith('bounce-'))).toEqual([]);
  });

  it('checks the size given on complete', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const p = (
      await owner.post('/api/bounces/publish', {
        repoId: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    await put(p.uploadUrl, fs.readFileSync(wavA), p.uploadToken);
    const wrong = await owner.post('/api/bounces/complete', {
      repoId: repo.id,
      branch: 'main',
      filename: 'Mix A.wav',
      size: 12,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: 'The uploaded file size does not match the size given',
    });
    // Found by repository, branch and file name when no upload id is given.
    const right = await owner.post('/api/bounces/complete', {
      repoId: repo.id,
      branch: 'main',
      filename: 'Mix A.wav',
    });
    expect(right.statusCode, right.body).toBe(201);
    const twice = await owner.post('/api/bounces/complete', {
      repoId: repo.id,
      branch: 'main',
      filename: 'Mix A.wav',
      uploadId: p.uploadId,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('an abandoned publish leaves nothing behind once its clean-up job has run', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const p = (
      await owner.post('/api/bounces/publish', {
        repoId: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    expect((await put(p.uploadUrl, fs.readFileSync(wavA), p.uploadToken)).statusCode).toBe(200);
    expect(await objectKeys('originals/')).toHaveLength(1);
    const never = (
      await owner.post('/api/bounces/publish', {
        repoId: repo.id,
        branch: 'main',
        filename: 'never.wav',
      })
    ).json<PublishResponse>();
    expect(never.uploadId).toBeTruthy();

    await t.deps.jobs.startWorking();
    // Not before the token has expired (plus its grace period).
    clock.advance(10 * 60 * 1000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await objectKeys('originals/')).toHaveLength(1);
    clock.advance(11 * 60 * 1000);
    await eventually(async () => (await objectKeys('originals/')).length === 0);
    await eventually(
      async () =>
        (await t.deps.database.db.selectFrom('bounce_uploads').selectAll().execute()).length === 0,
    );
  });

  it('keeps a stored original another version still uses when an abandoned publish is cleaned up', async () => {
    const { owner } = await setup();
    const repo = await createRepo(owner);
    expect((await owner.upload({ path: wavA }, {})).statusCode).toBe(201);
    const p = (
      await owner.post('/api/bounces/publish', {
        repoId: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    await put(p.uploadUrl, fs.readFileSync(wavA), p.uploadToken);
    clock.advance(21 * 60 * 1000);
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await t.deps.database.db.selectFrom('bounce_uploads').selectAll().execute()).length === 0,
    );
    expect(await objectKeys('originals/')).toHaveLength(1);
  });

  it("answers another user's repository, bounces and publish exactly like missing ones", async () => {
    const { owner, stranger } = await setup();
    const repo = await createRepo(owner);
    const bounce = await publishFile(owner, repo.id, wavA);
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
          repoId: repo.id,
          branch: 'main',
          filename: 'x.wav',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await stranger.post('/api/bounces/complete', {
          repoId: repo.id,
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
    const { owner, ownerCookie } = await setup();
    const repo = await createRepo(owner);
    const send = (content: Buffer, field = 'coverImage') => {
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
    const { coverUrl } = ok.json<{ coverUrl: string }>();
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
    const { owner } = await setup();
    const repo = await createRepo(owner);
    await publishFile(owner, repo.id, wavA, { title: 'Mix' });
    clock.advance(1000);
    const upload = await owner.upload({ path: wavB }, {});
    expect(upload.statusCode).toBe(201);
    clock.advance(1000);
    await publishFile(owner, repo.id, wavB, { title: 'Mix' });

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
    const { owner } = await setup();
    const repo = await createRepo(owner);
    const bounce = await publishFile(owner, repo.id, wavA);
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await owner.get(`/api/repos/${repo.id}/bounces/${bounce.id}`)).json<{ bounce: Bounce }>()
          .bounce.status === 'completed',
    );
    expect((await objectKeys('renditions/')).length).toBe(2);
    expect((await owner.delete(`/api/repos/${repo.id}`)).statusCode).toBe(204);
    await eventually(async () => (await objectKeys('originals/')).length === 0);
    await eventually(async () => (await objectKeys('renditions/')).length === 0);
    expect(await objectKeys('peaks/')).toEqual([]);
  });
});
