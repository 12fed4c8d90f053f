import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MESSAGES, type PublishResponse, type SessionResponse } from '@takes/contract';
import { api, eventually, ORIGIN } from '../../../test/api';
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

describe('demo accounts: expiry, creation limits and switching off', () => {
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
