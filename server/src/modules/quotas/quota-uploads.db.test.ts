import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatStorageBytes, type PublishResponse } from '@takes/contract';
import { api, multipartUpload, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildMember,
  buildProject,
  buildRepo,
  buildUser,
  type BuiltUser,
} from '../../../test/factories';
import { putUpload } from '../../../test/repos-setup';
import { filesUnder, guestTus, listening, tus } from '../../../test/tus-client';
import type { TestApp } from '../../../test/test-app';

const OVER_MINE = /^This upload would go over your storage quota by [\d.]+ (bytes?|KB|MB)/;
const OVER_OWNERS =
  /^This upload would go over the owner's storage quota by [\d.]+ (bytes?|KB|MB)\.$/;

let dir: string;
let wav: Buffer;
let wavPath: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-quota-up-'));
  wavPath = await makeAudio(dir, 'wav', 1, 'Take.wav');
  wav = fs.readFileSync(wavPath);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('storage quotas on every upload path: refused before the bytes are stored', () => {
  let t: TestApp;
  let base: string;
  afterEach(async () => {
    await t.close();
  });

  const db = () => t.deps.database.db;
  async function setQuota(user: BuiltUser, bytes: number) {
    await db()
      .insertInto('user_controls')
      .values({
        user_id: user.id,
        storage_quota_bytes: bytes,
        updated_at: new Date().toISOString(),
      })
      .execute();
  }
  /** What is stored: the object store's audio and the rows that hold it or are in flight. */
  async function stored() {
    const keys = async (prefix: string) =>
      (await t.deps.storage.list(prefix)).map((o) => `${o.key}:${o.size}`).sort();
    const count = async (
      table:
        | 'versions'
        | 'bounces'
        | 'bounce_uploads'
        | 'guest_files'
        | 'resumable_uploads'
        | 'storage_reservations',
    ) =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      originals: await keys('originals/'),
      renditions: await keys('renditions/'),
      versions: await count('versions'),
      bounces: await count('bounces'),
      bounceUploads: await count('bounce_uploads'),
      guestFiles: await count('guest_files'),
      resumable: await count('resumable_uploads'),
      holds: await count('storage_reservations'),
      tus: filesUnder(path.join(t.dir, 'resumable-uploads')),
    };
  }

  async function start() {
    ({ t, base } = await listening());
    const owner = await buildUser(db());
    const { project, branch } = await buildProject(db(), owner.id);
    /** Starts a resumable upload of the take as the owner's next version of the branch. */
    const createTake = () =>
      tus(base, owner.cookie).create(wav.length, {
        filename: 'Take.wav',
        project_id: project.id,
        branch_id: branch.id,
        commit_message: 'Louder',
      });
    return { owner, project, branch, createTake };
  }

  it('the versions upload (multipart): refused with the message, nothing stored; fits once the quota allows', async () => {
    const { owner, project, branch } = await start();
    await setQuota(owner, wav.length - 1000);
    const before = await stored();
    const fields = { project_id: project.id, branch_id: branch.id, commit_message: 'Louder' };
    const refused = await api(t, owner.cookie).upload({ path: wavPath }, fields);
    expect(refused.statusCode, refused.body).toBe(413);
    expect(refused.json()).toMatchObject({ code: 'storage_quota_exceeded' });
    expect(refused.json<{ error: string }>().error).toMatch(OVER_MINE);
    expect(await stored()).toEqual(before);

    // An editor's upload counts in the owner's storage: refused with the owner's quota.
    const editor = await buildMember(db(), { projectId: project.id }, 'editor');
    const byEditor = await api(t, editor.cookie).upload({ path: wavPath }, fields);
    expect(byEditor.statusCode, byEditor.body).toBe(413);
    expect(byEditor.json<{ error: string }>().error).toMatch(OVER_OWNERS);
    expect(await stored()).toEqual(before);

    await db()
      .updateTable('user_controls')
      .set({ storage_quota_bytes: wav.length + 10_000 })
      .execute();
    const fits = await api(t, owner.cookie).upload({ path: wavPath }, fields);
    expect(fits.statusCode, fits.body).toBe(201);
    const after = await stored();
    expect(after.versions).toBe(before.versions + 1);
    expect(after.holds).toBe(0);
    expect((await api(t, owner.cookie).get('/api/account/storage')).json()).toEqual({
      used_bytes: wav.length,
      quota_bytes: wav.length + 10_000,
    });
  });

  it('two uploads started together when only one fits: one is taken, the other refused', async () => {
    const { owner } = await start();
    await setQuota(owner, Math.floor(wav.length * 1.5));
    const send = () => {
      const { body, contentType } = multipartUpload({ content: wav, name: 'Take.wav' }, {});
      return t.app.inject({
        method: 'POST',
        url: '/api/versions/upload',
        payload: body,
        headers: { cookie: owner.cookie, origin: ORIGIN, 'content-type': contentType },
      });
    };
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 413, 413]);
    const after = await stored();
    expect(after.versions).toBe(1);
    expect(after.originals).toHaveLength(1);
    expect(after.holds).toBe(0);
  });

  it('the resumable path: an Upload-Length over the quota is refused at create, before any byte', async () => {
    const { owner, createTake } = await start();
    await setQuota(owner, wav.length - 1);
    const before = await stored();
    const created = await createTake();
    expect(created.status).toBe(413);
    const body = (await created.json()) as { error: string; code: string };
    expect(body.code).toBe('storage_quota_exceeded');
    expect(body.error).toBe(
      'This upload would go over your storage quota by 1 byte (0 bytes of ' +
        `${formatStorageBytes(wav.length - 1)} used).`,
    );
    expect(await stored()).toEqual(before);

    // One that fits holds its length while open, so a second of the same length is refused.
    await db().updateTable('user_controls').set({ storage_quota_bytes: wav.length }).execute();
    const first = await tus(base, owner.cookie).create(wav.length, { filename: 'Take.wav' });
    expect(first.status).toBe(201);
    const second = await tus(base, owner.cookie).create(wav.length, { filename: 'Take.wav' });
    expect(second.status).toBe(413);
    // Finishing the first makes its version and releases its hold.
    const done = await tus(base, owner.cookie).patch(
      first.headers.get('location') as string,
      0,
      wav,
    );
    expect(done.status, await done.clone().text()).toBe(200);
    expect((await stored()).holds).toBe(0);
  });

  it('bounce publishing: a declared size over the quota is refused at publish, an undeclared one at the PUT', async () => {
    const { owner } = await start();
    const repo = await buildRepo(db(), owner.id);
    await setQuota(owner, wav.length - 1);
    const before = await stored();
    const client = api(t, owner.cookie);
    const declared = await client.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'Take.wav',
      size: wav.length,
    });
    expect(declared.statusCode, declared.body).toBe(413);
    expect(declared.json<{ error: string }>().error).toMatch(OVER_MINE);
    expect(await stored()).toEqual(before);

    const started = await client.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'Take.wav',
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    const put = await putUpload(t, publish.upload_url, wav, publish.upload_token);
    expect(put.statusCode, put.body).toBe(413);
    expect(put.json<{ error: string }>().error).toMatch(OVER_MINE);
    expect(await stored()).toEqual(before);
  });

  it('guest upload links: the file counts in the project owner’s storage, refused at create', async () => {
    const { owner, project, branch } = await start();
    const made = await api(t, owner.cookie).post(`/api/projects/${project.id}/upload-links`, {
      branch_id: branch.id,
      name: 'Bass takes',
    });
    expect(made.statusCode, made.body).toBe(201);
    const key = made.json<{ url: string }>().url.split('/upload/')[1] as string;
    await setQuota(owner, wav.length - 1);
    const before = await stored();
    const created = await guestTus(base).create(wav.length, {
      upload_link: key,
      filename: 'Bass take.wav',
      guest_name: 'Sam Session',
    });
    expect(created.status).toBe(413);
    const body = (await created.json()) as { error: string; code: string };
    expect(body).toMatchObject({ code: 'storage_quota_exceeded' });
    expect(body.error).toMatch(OVER_OWNERS);
    expect(await stored()).toEqual(before);
  });

  it('checks again with the real size when the last byte is in (resumable, guest): refused, nothing kept', async () => {
    const { owner, project, branch, createTake } = await start();
    await setQuota(owner, wav.length * 10);
    const before = await stored();
    const created = await createTake();
    expect(created.status).toBe(201);
    // Meanwhile an admin lowers the quota below what the open upload holds.
    await db()
      .updateTable('user_controls')
      .set({ storage_quota_bytes: wav.length - 1 })
      .execute();
    const finished = await tus(base, owner.cookie).patch(
      created.headers.get('location') as string,
      0,
      wav,
    );
    expect(finished.status).toBe(413);
    expect(((await finished.json()) as { error: string }).error).toMatch(OVER_MINE);
    expect(await stored()).toEqual(before);

    await db()
      .updateTable('user_controls')
      .set({ storage_quota_bytes: wav.length * 10 })
      .execute();
    const made = await api(t, owner.cookie).post(`/api/projects/${project.id}/upload-links`, {
      branch_id: branch.id,
      name: 'Bass takes',
    });
    const key = made.json<{ url: string }>().url.split('/upload/')[1] as string;
    const guest = guestTus(base);
    const opened = await guest.create(wav.length, {
      upload_link: key,
      filename: 'Bass take.wav',
      guest_name: 'Sam Session',
    });
    expect(opened.status).toBe(201);
    await db()
      .updateTable('user_controls')
      .set({ storage_quota_bytes: wav.length - 1 })
      .execute();
    const sent = await guest.patch(opened.headers.get('location') as string, 0, wav);
    expect(sent.status).toBe(413);
    expect(((await sent.json()) as { error: string }).error).toMatch(OVER_OWNERS);
    expect(await stored()).toEqual(before);
  });
});
