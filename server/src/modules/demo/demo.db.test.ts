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
import { cookiesFrom, createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { RateLimiter } from '../../auth/rate-limiter';
import type { VersionsTable } from '../../db/schema';
import { ownedAudioKeys as ownedBounceKeys, ownedAudioKeys as ownedKeys } from '../audio';
import { expireDemoAccounts } from './demo-expiry';
import { DEMO_CREATE_RULE } from './demo.service';

type Client = ReturnType<typeof api>;
const HOUR = 60 * 60 * 1000;

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

  async function publishBounce(client: Client, repoId: string, file: string) {
    const started = await client.post('/api/bounces/publish', {
      repoId,
      branch: 'main',
      filename: path.basename(file),
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    const content = fs.readFileSync(file);
    const put = await t.app.inject({
      method: 'PUT',
      url: new URL(publish.uploadUrl).pathname,
      payload: content,
      headers: { 'content-type': 'audio/wav', 'x-upsert-token': publish.uploadToken },
    });
    expect(put.statusCode, put.body).toBe(200);
    const completed = await client.post('/api/bounces/complete', {
      repoId,
      branch: 'main',
      filename: path.basename(file),
      uploadId: publish.uploadId,
    });
    expect(completed.statusCode, completed.body).toBe(201);
    return completed.json<{ bounce: { id: string } }>().bounce;
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

  it('deletes an account with its rows and stored objects 24 hours after it began, and no other', async () => {
    const clock = new TestClock();
    t = await createTestApp({ clock });
    const db = t.deps.database.db;
    const early = await startDemo();
    clock.advance(12 * HOUR);
    const later = await startDemo();
    const earlyId = early.session.user.id;
    const laterId = later.session.user.id;

    // The early account adds audio of its own: a version and a bounce.
    expect((await early.client.upload({ path: oneSecond }, {})).statusCode).toBe(201);
    const repo = (await early.client.post('/api/repos', { name: 'Short Lived' })).json<{
      repo: { id: string };
    }>().repo;
    const bounce = await publishBounce(early.client, repo.id, twoSeconds);
    await t.deps.jobs.startWorking();
    const processed = async () => {
      const rows = [...(await versionsOf(earlyId)), ...(await versionsOf(laterId))];
      const bounces = await db.selectFrom('bounces').select('status').execute();
      return [...rows, ...bounces].every((row) => row.status === 'completed');
    };
    await eventually(processed);

    const earlyVersions = await versionsOf(earlyId);
    const laterVersions = await versionsOf(laterId);
    const bounceRow = await db
      .selectFrom('bounces')
      .selectAll()
      .where('id', '=', bounce.id)
      .executeTakeFirstOrThrow();
    const ownOriginals = [
      ...earlyVersions.filter((v) => v.tags === '[]').map((v) => v.original_key),
      bounceRow.original_key,
    ].filter((k): k is string => !!k);
    expect(ownOriginals).toHaveLength(2);
    const earlyKeys = [
      ...earlyVersions.flatMap(ownedKeys),
      ...ownedBounceKeys(bounceRow),
      ...ownOriginals,
    ];
    // The sample's audio is the same for every account: stored once, shared.
    const laterKeys = [
      ...laterVersions.flatMap(ownedKeys),
      ...laterVersions.map((v) => v.original_key as string),
    ];
    const stored = async () => new Set((await t.deps.storage.list('')).map((o) => o.key));
    for (const key of [...earlyKeys, ...laterKeys]) expect(await stored()).toContain(key);

    // Not a minute early.
    expect(await db.selectFrom('users').select('id').where('id', '=', earlyId).execute()).toEqual([
      { id: earlyId },
    ]);
    clock.advance(12 * HOUR + 60_000);
    t.deps.jobs.notify();
    await eventually(
      async () =>
        (await db.selectFrom('users').select('id').where('id', '=', earlyId).execute()).length ===
        0,
    );
    for (const table of ['sessions', 'demo_accounts', 'profiles'] as const)
      expect(
        await db.selectFrom(table).select('user_id').where('user_id', '=', earlyId).execute(),
      ).toEqual([]);
    for (const table of ['projects', 'repos'] as const)
      expect(
        await db.selectFrom(table).select('id').where('owner_id', '=', earlyId).execute(),
      ).toEqual([]);
    expect(await versionsOf(earlyId)).toEqual([]);
    expect(await db.selectFrom('bounces').select('id').execute()).toEqual([]);
    expect((await early.client.get('/api/projects')).statusCode).toBe(401);
    const earlyOnly = earlyKeys.filter((key) => !laterKeys.includes(key));
    expect(earlyOnly.length).toBeGreaterThan(ownOriginals.length);
    await eventually(async () => {
      const left = await stored();
      return earlyOnly.every((key) => !left.has(key));
    });
    const left = await stored();
    for (const key of laterKeys) expect(left.has(key), key).toBe(true);

    // The later account is untouched, and running the job again changes nothing.
    expect(await projectsOf(later.client)).toHaveLength(1);
    await expireDemoAccounts({ db, clock, storage: t.deps.storage, jobs: t.deps.jobs }, earlyId);
    expect(await projectsOf(later.client)).toHaveLength(1);
    expect(await db.selectFrom('demo_accounts').select('user_id').execute()).toEqual([
      { user_id: laterId },
    ]);
  }, 90_000);

  it('limits new demo accounts to 10 an hour per address', async () => {
    const clock = new TestClock();
    t = await createTestApp({ clock });
    const limiter = new RateLimiter(t.deps.database.db, clock);
    for (let i = 0; i < 10; i++) await limiter.hit(DEMO_CREATE_RULE, '10.1.2.3');
    const refused = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/demo',
        headers: { origin: ORIGIN },
        remoteAddress: '10.1.2.3',
      });
    expect((await refused()).statusCode).toBe(429);
    clock.advance(30 * 60_000);
    expect((await refused()).statusCode).toBe(429);
    expect(
      await t.deps.database.db.selectFrom('demo_accounts').select('user_id').execute(),
    ).toEqual([]);
    // Another address is not held back by this one.
    await startDemo('10.9.9.9');
  }, 60_000);

  it('is off with DEMO_ENABLED=false: the route answers 404 and the providers say so', async () => {
    t = await createTestApp({ env: { DEMO_ENABLED: 'false' } });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: DEMO_MESSAGES.disabled });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await t.deps.database.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/providers' })).json()).toEqual({
      google: false,
      apple: false,
      demo: false,
    });
    await t.close();

    t = await createTestApp();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/providers' })).json(),
    ).toMatchObject({ demo: true });
  });
});
