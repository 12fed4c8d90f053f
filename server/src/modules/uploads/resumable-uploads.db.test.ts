import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, PROJECT_MESSAGES } from '@takes/contract';
import { ORIGIN, eventually } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildCommit,
  buildMember,
  buildProject,
  buildRepo,
  buildUser,
  type BuiltUser,
} from '../../../test/factories';
import { TestClock, type TestApp } from '../../../test/test-app';
import { filesUnder, listening, processed, tus } from '../../../test/tus-client';

describe('resumable uploads (tus) on the local store', () => {
  let dir: string;
  let wav: Buffer;
  let t: TestApp;
  let base: string;
  let clock: TestClock;
  let owner: BuiltUser;
  let target: { projectId: string; branchId: string };
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-tus-'));
    wav = fs.readFileSync(await makeAudio(dir, 'wav', 2, 'Second Take.wav'));
    clock = new TestClock();
    ({ t, base } = await listening({ clock }));
    owner = await buildUser(t.deps.database.db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(t.deps.database.db, owner.id);
    target = { projectId: project.id, branchId: branch.id };
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const tusDir = () => path.join(t.dir, 'resumable-uploads');
  const versionMetadata = () => ({
    filename: 'Second Take.wav',
    project_id: target.projectId,
    branch_id: target.branchId,
    commit_message: 'Louder bass',
    tags: JSON.stringify(['mix']),
  });
  const row = (id: string) =>
    t.deps.database.db
      .selectFrom('resumable_uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();

  it('takes the file in two PATCHes, tells the offset between them, and makes a version that processes', async () => {
    const client = tus(base, owner.cookie);
    const created = await client.create(wav.length, versionMetadata());
    expect(created.status, await created.clone().text()).toBe(201);
    const url = created.headers.get('location') as string;
    expect(url).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    const id = url.split('/').pop() as string;

    const half = Math.floor(wav.length / 2);
    const first = await client.patch(url, 0, wav.subarray(0, half));
    expect(first.status).toBe(204);
    const head = await client.head(url);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(half));
    expect(head.headers.get('upload-length')).toBe(String(wav.length));

    const last = await client.patch(url, half, wav.subarray(half));
    const body = await last.text();
    expect(last.status, body).toBe(200);
    const { version_id: versionId } = JSON.parse(body) as { version_id: string };
    const version = await t.deps.database.db
      .selectFrom('versions')
      .selectAll()
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    expect(version.message).toBe('Louder bass');
    expect(version.original_name).toBe('Second Take.wav');
    expect(Number(version.original_size)).toBe(wav.length);
    expect(JSON.parse(version.tags)).toEqual(['mix']);
    // Every byte arrived once, and the tus copy is gone: the original is in the object store.
    // Counted once the request is over (the answer may reach us a moment before).
    await eventually(async () => (await row(id))?.patches === 2, 5000);
    const recorded = await row(id);
    expect(recorded?.state).toBe('finished');
    expect(Number(recorded?.received_bytes)).toBe(wav.length);
    expect(recorded?.patches).toBe(2);
    expect(filesUnder(tusDir())).toEqual([]);
    expect((await client.head(url)).status).toBe(404);

    await processed(t, versionId);
  }, 60_000);

  it('refuses an Upload-Length over 500 MB at create, before any byte', async () => {
    const created = await tus(base, owner.cookie).create(MAX_UPLOAD_BYTES + 1, versionMetadata());
    expect(created.status).toBe(413);
    expect(filesUnder(tusDir())).toEqual([]);
  });

  it('refuses an upload without a length or without a file name', async () => {
    const noName = await tus(base, owner.cookie).create(10, { project_id: target.projectId });
    expect(noName.status).toBe(400);
    expect(JSON.parse(await noName.text())).toEqual({
      error: 'Upload metadata must name the file (filename)',
      code: 'invalid',
    });
    const deferred = await fetch(`${base}/api/uploads`, {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-defer-length': '1',
        'upload-metadata': `filename ${Buffer.from('a.wav').toString('base64')}`,
        origin: ORIGIN,
        cookie: owner.cookie,
      },
    });
    expect(deferred.status).toBe(400);
  });

  it('refuses a field under its former camelCase name rather than make a new track of it', async () => {
    const { project_id: projectId, ...rest } = versionMetadata();
    const created = await tus(base, owner.cookie).create(10, { ...rest, projectId });
    expect(created.status).toBe(400);
    expect(JSON.parse(await created.text())).toEqual({
      error: "Upload field 'projectId' is now named 'project_id'",
      code: 'invalid',
    });
    expect(filesUnder(tusDir())).toEqual([]);
  });

  it("makes a repository's bounce on the commit its snake_case metadata names, and still reads an upload begun under the former names", async () => {
    const db = t.deps.database.db;
    const repo = await buildRepo(db, owner.id);
    const first = await buildCommit(db, repo.id, { message: 'Mix 1' });
    const second = await buildCommit(db, repo.id, { message: 'Mix 2' });
    const client = tus(base, owner.cookie);
    const send = async (metadata: Record<string, string>) => {
      const created = await client.create(wav.length, metadata);
      expect(created.status, await created.clone().text()).toBe(201);
      const done = await client.patch(created.headers.get('location') as string, 0, wav);
      const body = await done.text();
      expect(done.status, body).toBe(200);
      return JSON.parse(body) as { id: string; commit_sha: string | null; title: string };
    };
    const common = { kind: 'bounce', filename: 'Second Take.wav', branch: 'main' };
    const current = await send({
      ...common,
      repo_id: repo.id,
      commit_sha: first.commit.sha,
      title: 'Mix 1',
    });
    expect(current).toMatchObject({ commit_sha: first.commit.sha, title: 'Mix 1' });
    // What a CLI from before the rename sends, or an upload it began then and resumes now.
    const former = await send({ ...common, repoId: repo.id, commitSha: second.commit.sha });
    expect(former.commit_sha).toBe(second.commit.sha);

    const missing = await client.create(wav.length, common);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: 'Upload metadata must name the repository (repo_id)',
      code: 'invalid',
    });
  });

  it('cuts off a client that sends more bytes than it declared', async () => {
    const client = tus(base, owner.cookie);
    const created = await client.create(1000, versionMetadata());
    const url = created.headers.get('location') as string;
    // With a Content-Length past the declared end: refused before reading.
    const declaredOver = await client.patch(url, 0, Buffer.alloc(1500, 1));
    expect(declaredOver.status).toBe(413);
    // Streamed without a length: cut off at the declared end, nothing past it kept.
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        if (sent > 50 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024).fill(2));
      },
    });
    const streamed = await client.patch(url, 0, endless).catch((error: unknown) => error);
    if (streamed instanceof Response) expect(streamed.status).toBeGreaterThanOrEqual(400);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
    const id = url.split('/').pop() as string;
    const stored = filesUnder(tusDir()).filter((file) => path.basename(file) === id);
    for (const file of stored) expect(fs.statSync(file).size).toBeLessThanOrEqual(1000);
  });

  it('counts the bytes a cut-off PATCH kept, and a resume from there sends none of them again', async () => {
    const client = tus(base, owner.cookie);
    const created = await client.create(wav.length, versionMetadata());
    const url = created.headers.get('location') as string;
    const id = url.split('/').pop() as string;
    // The connection drops after the first 60 KB of the body (the client aborts mid-request).
    const abort = new AbortController();
    const firstPart = wav.subarray(0, 60 * 1024);
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(firstPart));
      },
      pull: () => new Promise(() => {}),
    });
    const cut = fetch(`${base}${url}`, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        origin: ORIGIN,
        cookie: owner.cookie,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: stalled,
      duplex: 'half',
      signal: abort.signal,
    }).catch(() => undefined);
    await eventually(() =>
      filesUnder(tusDir()).some(
        (file) => path.basename(file) === id && fs.statSync(file).size >= firstPart.length,
      ),
    );
    abort.abort();
    await cut;
    // Counted once the store has the bytes, before any resume.
    await eventually(async () => Number((await row(id))?.received_bytes) === firstPart.length);
    const offset = Number((await client.head(url)).headers.get('upload-offset'));
    expect(offset).toBe(firstPart.length);
    const rest = await client.patch(url, offset, wav.subarray(offset));
    expect(rest.status).toBe(200);
    const recorded = await row(id);
    expect(Number(recorded?.received_bytes)).toBe(wav.length);
    expect(Number(recorded?.patches)).toBe(2);
  });

  it('refuses a file that is not audio when it finishes, and leaves nothing', async () => {
    const db = t.deps.database.db;
    const before = await db.selectFrom('versions').select('id').orderBy('id').execute();
    // The earlier tests' versions may still be processing; their renditions and peaks (and the
    // FLAC, just after 'completed') land in the store on their own time, so the snapshot waits
    // for them first.
    await t.deps.jobs.startWorking();
    await eventually(async () => {
      const rows = await db.selectFrom('versions').select(['status', 'renditions']).execute();
      return rows.every(
        (r) =>
          r.status === 'failed' ||
          (r.status === 'completed' && (r.renditions ?? '').includes('"lossless"')),
      );
    });
    const objectsBefore = filesUnder(path.join(t.dir, 'objects'));
    const client = tus(base, owner.cookie);
    const text = Buffer.from('These are my lyrics, not a song file.\n'.repeat(200));
    const created = await client.create(text.length, {
      ...versionMetadata(),
      filename: 'lyrics.wav',
    });
    const url = created.headers.get('location') as string;
    const id = url.split('/').pop() as string;
    const last = await client.patch(url, 0, text);
    expect(last.status).toBe(415);
    expect(JSON.parse(await last.text())).toEqual({
      error: PROJECT_MESSAGES.invalidType,
      code: 'unsupported',
    });
    expect(await db.selectFrom('versions').select('id').orderBy('id').execute()).toEqual(before);
    expect(filesUnder(path.join(t.dir, 'objects'))).toEqual(objectsBefore);
    expect(filesUnder(tusDir()).filter((file) => path.basename(file).startsWith(id))).toEqual([]);
    expect(await row(id)).toBeUndefined();
  });

  it('answers 404 to a non-member and 403 to a viewer at create, and 404 to another user’s upload', async () => {
    const db = t.deps.database.db;
    const stranger = await buildUser(db);
    const viewer = await buildMember(db, { projectId: target.projectId }, 'viewer');
    const asStranger = await tus(base, stranger.cookie).create(wav.length, versionMetadata());
    expect(asStranger.status).toBe(404);
    const asViewer = await tus(base, viewer.cookie).create(wav.length, versionMetadata());
    expect(asViewer.status).toBe(403);
    const noOne = await fetch(`${base}/api/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '10', origin: ORIGIN },
    });
    expect(noOne.status).toBe(401);

    const mine = await tus(base, owner.cookie).create(wav.length, versionMetadata());
    const url = mine.headers.get('location') as string;
    expect((await tus(base, stranger.cookie).head(url)).status).toBe(404);
    expect((await tus(base, stranger.cookie).patch(url, 0, wav.subarray(0, 10))).status).toBe(404);
    await t.services.resumable.expire();
  });

  it('expires an upload left for 24 hours: refused at once, removed by the job', async () => {
    const client = tus(base, owner.cookie);
    const created = await client.create(wav.length, versionMetadata());
    const url = created.headers.get('location') as string;
    const id = url.split('/').pop() as string;
    expect((await client.patch(url, 0, wav.subarray(0, 1000))).status).toBe(204);
    expect(filesUnder(tusDir()).some((file) => path.basename(file) === id)).toBe(true);

    clock.advance(23 * 60 * 60 * 1000);
    expect(await t.services.resumable.expire()).toBe(0);
    expect((await client.head(url)).status).toBe(200);

    clock.advance(60 * 60 * 1000 + 1000);
    expect((await client.head(url)).status).toBe(410);
    expect(await t.services.resumable.expire()).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toBeUndefined();
    expect(filesUnder(tusDir()).filter((file) => path.basename(file).startsWith(id))).toEqual([]);
    expect((await client.head(url)).status).toBe(404);
  });
});
