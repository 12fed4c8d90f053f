import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { TestClock, type TestApp } from '../../../test/test-app';
import { filesUnder, listening, tus } from '../../../test/tus-client';

const MB = 1024 * 1024;
const FINISH_ONE = 'Finish or cancel one before starting another.';

/**
 * Caps on a person's unfinished resumable uploads (each may be 500 MB and wait 24 hours):
 * here at most 5 at once and 1 GB together (RESUMABLE_UPLOADS_MAX_OPEN, _BYTES), checked at the
 * tus creation before anything is stored, and holding under creations sent at once.
 */
describe('resumable uploads: caps on unfinished uploads per person', () => {
  let dir: string;
  let wav: Buffer;
  let t: TestApp;
  let base: string;
  let clock: TestClock;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-tus-caps-'));
    wav = fs.readFileSync(await makeAudio(dir, 'wav', 1, 'Take.wav'));
    clock = new TestClock();
    ({ t, base } = await listening({
      clock,
      env: { RESUMABLE_UPLOADS_MAX_OPEN: '5', RESUMABLE_UPLOADS_MAX_BYTES: '1GB' },
    }));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const tusDir = () => path.join(t.dir, 'resumable-uploads');
  const db = () => t.deps.database.db;

  /** A person with a project of their own to upload to. */
  async function uploader(): Promise<{
    user: BuiltUser;
    client: ReturnType<typeof tus>;
    metadata: Record<string, string>;
  }> {
    const user = await buildUser(db());
    const { project, branch } = await buildProject(db(), user.id);
    return {
      user,
      client: tus(base, user.cookie),
      metadata: {
        filename: 'Take.wav',
        project_id: project.id,
        branch_id: branch.id,
        commit_message: 'Rough mix',
      },
    };
  }

  async function createOk(client: ReturnType<typeof tus>, size: number, metadata: object) {
    const created = await client.create(size, metadata as Record<string, string>);
    expect(created.status, await created.clone().text()).toBe(201);
    return created.headers.get('location') as string;
  }

  const openRows = (userId: string) =>
    db()
      .selectFrom('resumable_uploads')
      .select('id')
      .where('user_id', '=', userId)
      .where('state', '=', 'receiving')
      .execute();

  /** tus termination: what tus-js-client's abort(true) sends. */
  const terminate = (url: string, cookie: string) =>
    fetch(`${base}${url}`, {
      method: 'DELETE',
      headers: { 'tus-resumable': '1.0.0', origin: ORIGIN, cookie },
    });

  it('refuses a 6th unfinished upload with 429, saying so, before anything is stored', async () => {
    const { user, client, metadata } = await uploader();
    for (let i = 0; i < 5; i++) await createOk(client, 1000, metadata);
    const filesBefore = filesUnder(tusDir());

    const sixth = await client.create(1000, metadata);
    expect(sixth.status).toBe(429);
    expect(JSON.parse(await sixth.text())).toEqual({
      error: `You have 5 unfinished uploads, and at most 5 are allowed at once. ${FINISH_ONE}`,
      code: 'rate_limited',
      details: { limit: 'open_uploads', open: 5, max_open: 5 },
    });
    expect(sixth.headers.get('location')).toBeNull();
    expect(filesUnder(tusDir())).toEqual(filesBefore);
    expect(await openRows(user.id)).toHaveLength(5);

    // Another person's uploads are theirs to count.
    const other = await uploader();
    await createOk(other.client, 1000, other.metadata);
  });

  it('refuses an upload that would take the unfinished ones past 1 GB together', async () => {
    const { user, client, metadata } = await uploader();
    await createOk(client, 400 * MB, metadata);
    await createOk(client, 400 * MB, metadata);
    const third = await client.create(400 * MB, metadata);
    expect(third.status).toBe(429);
    expect(JSON.parse(await third.text())).toEqual({
      error: `Your unfinished uploads already hold 800 MB of the 1 GB allowed at once, and this file is 400 MB. ${FINISH_ONE}`,
      code: 'rate_limited',
      details: { limit: 'bytes_in_flight', held_bytes: 800 * MB, max_bytes: 1024 * MB },
    });
    // What still fits is taken.
    await createOk(client, 224 * MB, metadata);
    expect(await openRows(user.id)).toHaveLength(3);
  });

  it('lets only the allowed number through when creations arrive at once', async () => {
    const { user, client, metadata } = await uploader();
    for (let i = 0; i < 4; i++) await createOk(client, 1000, metadata);
    // The 5th, 6th and 7th at once: one slot is left.
    const answers = await Promise.all([1, 2, 3].map(() => client.create(1000, metadata)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 429, 429]);
    expect(await openRows(user.id)).toHaveLength(5);

    // The same for the bytes: 1 GB holds two of 400 MB, not three.
    const second = await uploader();
    await createOk(second.client, 400 * MB, second.metadata);
    const racing = await Promise.all(
      [1, 2].map(() => second.client.create(400 * MB, second.metadata)),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([201, 429]);
    expect(await openRows(second.user.id)).toHaveLength(2);
  });

  it('frees a slot when the client cancels an upload (tus termination)', async () => {
    const { user, client, metadata } = await uploader();
    const urls: string[] = [];
    for (let i = 0; i < 5; i++) urls.push(await createOk(client, wav.length, metadata));
    const cancelled = urls[0] as string;
    const id = cancelled.split('/').pop() as string;
    expect((await client.patch(cancelled, 0, wav.subarray(0, 1000))).status).toBe(204);
    expect((await client.create(1000, metadata)).status).toBe(429);

    // Someone else cannot cancel it.
    const stranger = await buildUser(db());
    expect((await terminate(cancelled, stranger.cookie)).status).toBe(404);

    const deleted = await terminate(cancelled, user.cookie);
    expect(deleted.status).toBe(204);
    expect((await client.head(cancelled)).status).toBe(404);
    expect(filesUnder(tusDir()).filter((file) => path.basename(file).startsWith(id))).toEqual([]);
    expect(
      await db().selectFrom('resumable_uploads').select('id').where('id', '=', id).execute(),
    ).toEqual([]);
    await createOk(client, 1000, metadata);
    expect(await openRows(user.id)).toHaveLength(5);
  });

  it('frees a slot when an upload finishes', async () => {
    const { user, client, metadata } = await uploader();
    const urls: string[] = [];
    for (let i = 0; i < 5; i++) urls.push(await createOk(client, wav.length, metadata));
    expect((await client.create(wav.length, metadata)).status).toBe(429);

    const finished = await client.patch(urls[0] as string, 0, wav);
    expect(finished.status, await finished.clone().text()).toBe(200);
    expect(await openRows(user.id)).toHaveLength(4);
    await createOk(client, wav.length, metadata);
    expect(await openRows(user.id)).toHaveLength(5);
  }, 60_000);

  // Moves the app's clock a day on: keep last.
  it('stops counting uploads once they have expired', async () => {
    const { client, metadata } = await uploader();
    for (let i = 0; i < 5; i++) await createOk(client, 1000, metadata);
    expect((await client.create(1000, metadata)).status).toBe(429);
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    await createOk(client, 1000, metadata);
  });
});
