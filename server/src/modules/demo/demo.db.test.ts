import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_MAX_UPLOAD_BYTES,
  DEMO_MESSAGES,
  type PublishResponse,
  type SessionResponse,
} from '@takes/contract';
import { api, eventually, newUser, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { cookiesFrom, createTestApp, type TestApp } from '../../../test/test-app';
import type { VersionsTable } from '../../db/schema';

type Client = ReturnType<typeof api>;

let dir: string;
let oneSecond: string;
let twoSeconds: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-demo-'));
  oneSecond = await makeAudio(dir, 'wav', 1, 'one.wav');
  twoSeconds = await makeAudio(dir, 'wav', 2, 'two.wav');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('demo accounts', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  async function startDemo(remoteAddress = '127.0.0.1') {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: ORIGIN },
      remoteAddress,
    });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = cookiesFrom(response.headers['set-cookie']);
    return { client: api(t, cookie), cookie, session: response.json<SessionResponse>() };
  }

  async function projectsOf(client: Client) {
    return (await client.get('/api/projects')).json<
      { id: string; name: string; branches: { name: string; version_count: number }[] }[]
    >();
  }

  async function versionsOf(userId: string): Promise<VersionsTable[]> {
    return t.deps.database.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .selectAll('versions')
      .where('projects.owner_id', '=', userId)
      .execute();
  }

  async function uploadsUsed(userId: string): Promise<number | undefined> {
    const row = await t.deps.database.db
      .selectFrom('demo_accounts')
      .select('uploads_used')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.uploads_used;
  }
  /** A body made as it is read, so a test can see how much of it the server took. */
  function lazyBody(head: Buffer, bytes: number, tail: Buffer) {
    const chunk = Buffer.alloc(64 * 1024, 7);
    let produced = 0;
    let headSent = false;
    const stream = new Readable({
      read() {
        if (!headSent) {
          headSent = true;
          this.push(head);
        } else if (produced < bytes) {
          const next = chunk.subarray(0, Math.min(chunk.length, bytes - produced));
          produced += next.length;
          this.push(next);
        } else {
          this.push(tail);
          this.push(null);
        }
      },
    });
    return { stream, produced: () => produced };
  }

  it('gives each visitor an account of their own with the sample project; one cannot see the other', async () => {
    t = await createTestApp();
    const first = await startDemo();
    const second = await startDemo();
    expect(first.session.user.id).not.toBe(second.session.user.id);
    for (const { session } of [first, second]) {
      expect(session.user.name).toBe('Demo Musician');
      expect(session.user.email).toMatch(/^[0-9a-f]{32}@demo\.takes\.invalid$/);
    }
    expect(first.session.user.email).not.toBe(second.session.user.email);
    // Neither has a password to sign in with.
    const accounts = await t.deps.database.db
      .selectFrom('accounts')
      .select('id')
      .where('user_id', 'in', [first.session.user.id, second.session.user.id])
      .execute();
    expect(accounts).toEqual([]);

    const mine = await projectsOf(first.client);
    const theirs = await projectsOf(second.client);
    for (const projects of [mine, theirs]) {
      expect(projects).toHaveLength(1);
      expect(projects[0]).toMatchObject({
        name: 'Sample Project',
        branches: [
          { name: 'main', version_count: 2 },
          { name: 'acoustic', version_count: 0 },
        ],
      });
    }
    expect(mine[0]?.id).not.toBe(theirs[0]?.id);
    const theirProject = theirs[0]?.id ?? '';
    expect((await first.client.get(`/api/projects/${theirProject}`)).statusCode).toBe(404);
    expect((await first.client.delete(`/api/projects/${theirProject}`)).statusCode).toBe(404);
    const theirVersions = await versionsOf(second.session.user.id);
    expect(theirVersions).toHaveLength(2);
    for (const version of theirVersions) {
      expect((await first.client.get(`/api/versions/${version.id}`)).statusCode).toBe(404);
      expect((await first.client.delete(`/api/versions/${version.id}`)).statusCode).toBe(404);
    }
    expect(await projectsOf(second.client)).toHaveLength(1);

    // The sample is real audio: it processes like any upload.
    await t.deps.jobs.startWorking();
    for (const version of await versionsOf(first.session.user.id)) {
      await eventually(
        async () =>
          (await first.client.get(`/api/versions/${version.id}/processing`)).json<{
            status: string;
          }>().status === 'completed',
      );
    }
  }, 60_000);

  it('allows 3 uploads (versions and bounce publishes), refuses the 4th, and refuses more than 50 MB while it streams', async () => {
    t = await createTestApp();
    const { client, cookie, session } = await startDemo();
    const userId = session.user.id;
    const [project] = await projectsOf(client);
    const branches = (await client.get(`/api/projects/${project?.id}/branches`)).json<
      { id: string; name: string }[]
    >();
    const main = branches.find((b) => b.name === 'main');
    const fields = {
      projectId: project?.id ?? '',
      branchId: main?.id ?? '',
      commitMessage: 'Mine',
    };
    expect(await uploadsUsed(userId)).toBe(0);

    // A version upload past 50 MB: refused as it arrives, not after the whole body.
    const boundary = 'demoboundary';
    const total = 200 * 1024 * 1024;
    const big = lazyBody(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audioFile"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
      total,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    const tooBig = await t.app.inject({
      method: 'POST',
      url: '/api/versions/upload',
      payload: big.stream,
      headers: {
        cookie,
        origin: ORIGIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ error: DEMO_MESSAGES.tooLarge });
    expect(big.produced()).toBeGreaterThan(DEMO_MAX_UPLOAD_BYTES);
    expect(big.produced()).toBeLessThan(total);
    expect(fs.readdirSync(t.deps.tmpDir)).toEqual([]);
    expect(await uploadsUsed(userId)).toBe(0);

    // A bounce past 50 MB: the publish says the limit, the PUT stops at it.
    const repo = (await client.post('/api/repos', { name: 'Demo Repo' })).json<{
      repo: { id: string };
    }>().repo;
    const declared = await client.post('/api/bounces/publish', {
      repoId: repo.id,
      branch: 'main',
      filename: 'big.wav',
      size: DEMO_MAX_UPLOAD_BYTES + 1,
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual({ error: DEMO_MESSAGES.tooLarge });
    const started = await client.post('/api/bounces/publish', {
      repoId: repo.id,
      branch: 'main',
      filename: 'big.wav',
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    expect(publish.maxBytes).toBe(DEMO_MAX_UPLOAD_BYTES);
    expect(await uploadsUsed(userId)).toBe(1);
    const declaredPut = await t.app.inject({
      method: 'PUT',
      url: new URL(publish.uploadUrl).pathname,
      payload: Buffer.from('RIFF'),
      headers: {
        'content-type': 'audio/wav',
        'content-length': String(DEMO_MAX_UPLOAD_BYTES + 1),
        'x-upsert-token': publish.uploadToken,
      },
    });
    expect(declaredPut.statusCode).toBe(413);
    expect(declaredPut.json()).toEqual({ error: DEMO_MESSAGES.tooLarge });
    // A body that does not say its length is cut off where it passes the limit.
    const again = (
      await client.post('/api/bounces/publish', {
        repoId: repo.id,
        branch: 'main',
        filename: 'big.wav',
      })
    ).json<PublishResponse>();
    expect(await uploadsUsed(userId)).toBe(2);
    const bigBounce = lazyBody(Buffer.from('RIFF'), total, Buffer.alloc(0));
    // The PUT route reads the request itself, so stopping it ends the request: a client
    // that declared no length sees the connection end (the 413 may not reach it).
    const put = await t.app
      .inject({
        method: 'PUT',
        url: new URL(again.uploadUrl).pathname,
        payload: bigBounce.stream,
        headers: { 'content-type': 'audio/wav', 'x-upsert-token': again.uploadToken },
      })
      .then(
        (response) => ({ status: response.statusCode, body: response.body }),
        (error: unknown) => ({ status: 0, body: String(error) }),
      );
    // Either the 413 arrives, or the connection ends (status 0): never a stored upload.
    if (put.status === 413) expect(JSON.parse(put.body)).toEqual({ error: DEMO_MESSAGES.tooLarge });
    else expect(put.status).toBe(0);
    expect(bigBounce.produced()).toBeLessThan(total);

    // The refused PUT leaves nothing (its clean-up may finish just after the request ends).
    await eventually(
      async () =>
        (await t.deps.database.db.selectFrom('bounce_uploads').select('id').execute()).length === 0,
    );
    expect(await t.deps.storage.list('originals/')).toHaveLength((await versionsOf(userId)).length);

    // Upload three: a version.
    const third = await client.upload({ path: oneSecond }, fields);
    expect(third.statusCode, third.body).toBe(201);
    expect(await uploadsUsed(userId)).toBe(3);

    // The fourth, of either kind, is refused before any byte is stored.
    const fourth = await client.upload({ path: twoSeconds }, fields);
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toEqual({ error: DEMO_MESSAGES.uploadsUsedUp });
    const fourthBounce = await client.post('/api/bounces/publish', {
      repoId: repo.id,
      branch: 'main',
      filename: 'again.wav',
    });
    expect(fourthBounce.statusCode).toBe(403);
    expect(fourthBounce.json()).toEqual({ error: DEMO_MESSAGES.uploadsUsedUp });
    expect(await versionsOf(userId)).toHaveLength(3);
    expect(await uploadsUsed(userId)).toBe(3);

    // Nobody else is held to the demo's quota.
    const owner = api(t, await newUser(t));
    for (let i = 0; i < 4; i++)
      expect((await owner.upload({ path: oneSecond }, {})).statusCode).toBe(201);
  }, 90_000);

  it('refuses a demo account share links, desktop and CLI sign-in, the debug page and password changes', async () => {
    // In development without ADMIN_EMAILS every signed-in user may see the debug page: not a demo.
    t = await createTestApp({ env: { NODE_ENV: 'development' } });
    const { client, session } = await startDemo();
    const [version] = await versionsOf(session.user.id);
    const link = await client.post(`/api/versions/${version?.id}/links`, {});
    expect(link.statusCode).toBe(403);
    expect(link.json()).toEqual({ error: DEMO_MESSAGES.shareLinks });
    expect(await t.deps.database.db.selectFrom('links').select('id').execute()).toEqual([]);

    const approve = await client.post('/api/desktop/approve');
    expect(approve.statusCode).toBe(403);
    expect(approve.json()).toEqual({ error: DEMO_MESSAGES.desktopTokens });
    expect(
      await t.deps.database.db.selectFrom('desktop_codes').select('user_id').execute(),
    ).toEqual([]);

    const debug = await client.get('/api/debug');
    expect(debug.statusCode).toBe(403);
    expect(Object.keys(debug.json<object>())).toEqual(['error']);
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/debug',
      headers: { cookie: (await startDemo()).cookie },
    });
    expect(head.statusCode).toBe(403);
    expect((await client.post('/api/debug/round-trip')).statusCode).toBe(403);

    const password = await client.post('/api/auth/change-password', {
      currentPassword: 'anything',
      newPassword: 'violet-mixdown-48',
    });
    expect(password.statusCode).toBe(403);
    expect(password.json()).toEqual({ error: DEMO_MESSAGES.credentials });

    // The same calls work for a regular account.
    const owner = api(t, await newUser(t));
    const upload = (await owner.upload({ path: oneSecond }, {})).json<{ versionId: string }>();
    expect((await owner.post(`/api/versions/${upload.versionId}/links`, {})).statusCode).toBe(201);
    expect((await owner.post('/api/desktop/approve')).statusCode).toBe(200);
    expect((await owner.get('/api/debug')).statusCode).toBe(200);
  }, 60_000);
});
