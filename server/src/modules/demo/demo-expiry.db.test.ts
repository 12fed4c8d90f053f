import { afterEach, describe, expect, it } from 'vitest';
import { demoAudio, demoHelpers } from '../../../test/demo-app';
import { eventually, ORIGIN } from '../../../test/api';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { ownedAudioKeys as ownedBounceKeys, ownedAudioKeys as ownedKeys } from '../audio';

const HOUR = 60 * 60 * 1000;
// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const audio = demoAudio();

describe('demo accounts', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });
  const { startDemo, projectsOf, versionsOf, publishBounce } = demoHelpers(() => t);

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
    expect((await early.client.upload({ path: audio.oneSecond }, {})).statusCode).toBe(201);
    const repo = (await early.client.post('/api/repos', { name: 'Short Lived' })).json<{
      repo: { id: string };
    }>().repo;
    const bounce = await publishBounce(early.client, repo.id, audio.twoSeconds);
    // And a collection with a cover image.
    const collection = (await early.client.post('/api/collections', { name: 'Keepers' })).json<{
      id: string;
    }>();
    const boundary = '----takesdemocover';
    const covered = await t.app.inject({
      method: 'PUT',
      url: `/api/collections/${collection.id}/cover`,
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="cover_image"; filename="c.png"\r\n\r\n`,
        ),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: {
        cookie: early.cookie,
        origin: ORIGIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    expect(covered.statusCode, covered.body).toBe(200);
    const coverKeys = (await t.deps.storage.list(`collection-covers/${collection.id}/`)).map(
      (o) => o.key,
    );
    expect(coverKeys).toHaveLength(1);
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
      ...coverKeys,
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
    await t.services.demoExpiry.expire(earlyId);
    expect(await projectsOf(later.client)).toHaveLength(1);
    expect(await db.selectFrom('demo_accounts').select('user_id').execute()).toEqual([
      { user_id: laterId },
    ]);
  }, 90_000);
});
