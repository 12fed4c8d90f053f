import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Bounce, PublishResponse, Repository, TimelineCommit } from '@takes/contract';
import { eventually, ORIGIN } from '../../../test/api';
import { buildCommit } from '../../../test/factories';
import {
  useRepoAudio,
  nightDrive,
  objectKeys,
  publishFile,
  putUpload,
  setupRepoTest,
  type RepoTestContext,
} from '../../../test/repos-setup';

const INVALID_TYPE = 'Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.';
const TOO_LARGE =
  'File size exceeds the 500MB limit. Please upload a smaller file or contact support for assistance with very large files.';

const audio = useRepoAudio();

describe('publishing bounces: tokens, uploads, completion and processing', () => {
  let c: RepoTestContext;
  afterEach(async () => {
    await c.t.close();
  });

  it('a token used by two PUTs at once admits only one', async () => {
    c = await setupRepoTest();
    const { t, owner } = c;
    const repo = await nightDrive(c);
    const p = (
      await owner.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    const content = fs.readFileSync(audio.wavA);
    const results = await Promise.all([
      putUpload(t, p.upload_url, content, p.upload_token),
      putUpload(t, p.upload_url, content, p.upload_token),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('publishes bounces: publish, PUT with the token, complete, processing with peaks and loudness, streaming with ranges', async () => {
    c = await setupRepoTest();
    const { t, owner, clock } = c;
    const repo = await nightDrive(c);
    const { commit } = await buildCommit(t.deps.database.db, repo.id, { message: 'Mix 1' });
    const a = await publishFile(t, owner, repo.id, audio.wavA, {
      commitSha: commit.sha,
      title: 'Mix',
    });
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
    const b = await publishFile(t, owner, repo.id, audio.wavB);
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
    expect(done.loudness?.integrated_lufs).toBeLessThan(0);
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
    expect(log.commits[0]?.has_bounce).toBe(true);

    const size = fs.statSync(audio.wavA).size;
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
    c = await setupRepoTest();
    const { t, owner } = c;
    const repo = await nightDrive(c);
    const bounce = await publishFile(t, owner, repo.id, audio.mp3, { branch: 'demo' });
    expect(bounce).toMatchObject({ branch: 'demo', title: 'Rough', mime: 'audio/mpeg' });
    const log = (await owner.get(`/api/repos/${repo.id}/commits?branch=demo`)).json<{
      commits: TimelineCommit[];
    }>().commits;
    expect(log).toMatchObject([
      { message: 'Publish Rough', sha: bounce.commit_sha, has_bounce: true },
    ]);
  });

  it('refuses a missing, wrong, reused or expired upload token, and leaves nothing behind', async () => {
    c = await setupRepoTest();
    const { t, owner, clock } = c;
    const repo = await nightDrive(c);
    const content = fs.readFileSync(audio.wavA);
    const start = async () =>
      (
        await owner.post('/api/bounces/publish', {
          repo_id: repo.id,
          branch: 'main',
          filename: 'Mix A.wav',
        })
      ).json<PublishResponse>();

    const before = clock.now().getTime();
    const p = await start();
    expect(p.upload_url).toBe(`${ORIGIN}/api/bounces/uploads/${p.upload_id}`);
    const lifetime = new Date(p.expires_at).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(15 * 60 * 1000);
    expect(lifetime).toBeLessThan(15 * 60 * 1000 + 5000);
    const missing = await putUpload(t, p.upload_url, content);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'The x-upsert-token header is required' });
    const wrong = await putUpload(t, p.upload_url, content, 'not-the-token');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ error: 'This upload token is not valid for this upload' });
    expect((await putUpload(t, p.upload_url, content, p.upload_token)).statusCode).toBe(200);
    const reused = await putUpload(t, p.upload_url, content, p.upload_token);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ error: 'This upload token has already been used' });

    const late = await start();
    clock.advance(15 * 60 * 1000 + 1);
    const expired = await putUpload(t, late.upload_url, content, late.upload_token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      error: 'This upload link has expired. Start the publish again.',
    });
    const unknown = await putUpload(t, `${ORIGIN}/api/bounces/uploads/nope`, content, 'x');
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses an oversize PUT (413) and a non-audio PUT (415) without storing anything', async () => {
    c = await setupRepoTest({ uploadMaxBytes: 50_000 });
    const { t, owner } = c;
    const repo = await nightDrive(c);
    const start = async (filename: string) =>
      (
        await owner.post('/api/bounces/publish', { repo_id: repo.id, branch: 'main', filename })
      ).json<PublishResponse>();

    const declared = await owner.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'big.wav',
      size: 60_000,
    });
    expect(declared.statusCode).toBe(413);

    const big = await start('big.wav');
    const oversize = await putUpload(
      t,
      big.upload_url,
      fs.readFileSync(audio.wavB),
      big.upload_token,
    );
    expect(oversize.statusCode).toBe(413);
    expect(oversize.json()).toMatchObject({ error: TOO_LARGE });

    const text = await start('notes.wav');
    const notAudio = await putUpload(
      t,
      text.upload_url,
      Buffer.from('These are lyrics, not audio.\n'.repeat(50)),
      text.upload_token,
    );
    expect(notAudio.statusCode).toBe(415);
    expect(notAudio.json()).toMatchObject({ error: INVALID_TYPE });

    // RIFF/WAVE magic bytes in front of noise: caught by ffprobe.
    const fake = await start('fake.wav');
    const header = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1');
    const disguised = await putUpload(
      t,
      fake.upload_url,
      Buffer.concat([header, Buffer.alloc(4000, 7)]),
      fake.upload_token,
    );
    expect(disguised.statusCode).toBe(415);

    const complete = await owner.post('/api/bounces/complete', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'notes.wav',
    });
    expect(complete.statusCode).toBe(404);
    expect(complete.json()).toMatchObject({
      error: 'No uploaded file was found for this publish. Upload the file first.',
    });
    expect(await objectKeys(t, 'originals/')).toEqual([]);
    const rows = await t.deps.database.db.selectFrom('bounce_uploads').selectAll().execute();
    expect(rows.map((r) => r.filename)).toEqual([]);
    expect(fs.readdirSync(t.deps.tmpDir).filter((f) => f.startsWith('bounce-'))).toEqual([]);
  });

  it('checks the size given on complete', async () => {
    c = await setupRepoTest();
    const { t, owner } = c;
    const repo = await nightDrive(c);
    const p = (
      await owner.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    await putUpload(t, p.upload_url, fs.readFileSync(audio.wavA), p.upload_token);
    const wrong = await owner.post('/api/bounces/complete', {
      repo_id: repo.id,
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
      repo_id: repo.id,
      branch: 'main',
      filename: 'Mix A.wav',
    });
    expect(right.statusCode, right.body).toBe(201);
    const twice = await owner.post('/api/bounces/complete', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'Mix A.wav',
      upload_id: p.upload_id,
    });
    expect(twice.statusCode).toBe(404);
  });
});
