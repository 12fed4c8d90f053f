import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_MESSAGES } from '@takes/contract';
import { eventually, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { startLoopbackS3, type LoopbackS3 } from '../../../test/s3-server';
import { TestClock, type TestApp } from '../../../test/test-app';
import { listening, processed, tus } from '../../../test/tus-client';
import { S3ObjectStore } from '../../storage/s3';
import { createTusStore } from './tus-store';

/** The keys @tus/s3-store writes for an upload: the multipart object, its info, its last bytes. */
const TUS_KEY = /^[0-9a-f]{32}(\.info|\.part)?$/;

describe('resumable uploads (tus) with their parts in the bucket (s3rver on loopback)', () => {
  let s3: LoopbackS3;
  let bucket: S3ObjectStore;
  let dir: string;
  let wav: Buffer;
  let t: TestApp;
  let base: string;
  let clock: TestClock;
  let owner: BuiltUser;
  let target: { projectId: string; branchId: string };
  beforeAll(async () => {
    s3 = await startLoopbackS3();
    bucket = new S3ObjectStore(s3.options);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-tus-s3-'));
    // 60 s of 48 kHz 16-bit stereo: 11.5 MB, more than one 8 MiB part.
    wav = fs.readFileSync(await makeAudio(dir, 'wav', 60, 'Long Take.wav'));
    clock = new TestClock();
    ({ t, base } = await listening({ clock, storage: () => new S3ObjectStore(s3.options) }));
    owner = await buildUser(t.deps.database.db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(t.deps.database.db, owner.id);
    target = { projectId: project.id, branchId: branch.id };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const versionMetadata = () => ({
    filename: 'Long Take.wav',
    project_id: target.projectId,
    branch_id: target.branchId,
    commit_message: 'Full length',
  });
  const tusKeys = async () =>
    (await bucket.list('')).map((object) => object.key).filter((key) => TUS_KEY.test(key));
  /** s3rver's record of multipart uploads not completed nor aborted. */
  const openMultipartUploads = () => {
    const root = path.join(s3.directory, s3.options.bucket);
    return fs
      .readdirSync(root)
      .filter((name) => name.includes('uploads'))
      .flatMap((name) => fs.readdirSync(path.join(root, name)));
  };
  /** What another serve process, with its own store and nothing cached, sees of an upload. */
  const offsetElsewhere = async (id: string) =>
    (await createTusStore(new S3ObjectStore(s3.options), dir).getUpload(id)).offset;

  it('keeps the parts in the bucket between PATCHes, so another process sees the offset, and leaves nothing when done', async () => {
    const client = tus(base, owner.cookie);
    const created = await client.create(wav.length, versionMetadata());
    expect(created.status, await created.clone().text()).toBe(201);
    const url = created.headers.get('location') as string;
    const id = url.split('/').pop() as string;

    // 3 MB: less than a part, kept as the upload's `.part` object.
    const first = 3_000_000;
    expect((await client.patch(url, 0, wav.subarray(0, first))).status).toBe(204);
    expect((await tusKeys()).sort()).toEqual([`${id}.info`, `${id}.part`]);
    expect(await offsetElsewhere(id)).toBe(first);

    // Up to 9.5 MB: the `.part` and the new bytes make part 1 (8 MiB), the rest a new `.part`.
    const second = 9_500_000;
    const middle = await client.patch(url, first, wav.subarray(first, second));
    expect(middle.status).toBe(204);
    expect((await client.head(url)).headers.get('upload-offset')).toBe(String(second));
    expect(await offsetElsewhere(id)).toBe(second);

    const last = await client.patch(url, second, wav.subarray(second));
    const body = await last.text();
    expect(last.status, body).toBe(200);
    const { version_id: versionId } = JSON.parse(body) as { version_id: string };
    const version = await t.deps.database.db
      .selectFrom('versions')
      .select(['original_size', 'original_key'])
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    expect(Number(version.original_size)).toBe(wav.length);
    // The original is whole in the object store; the tus objects and the multipart upload are gone.
    const original = await bucket.get(version.original_key as string);
    const chunks: Buffer[] = [];
    for await (const chunk of original.body as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(wav)).toBe(true);
    expect(await tusKeys()).toEqual([]);
    expect(openMultipartUploads()).toEqual([]);
    expect((await client.head(url)).status).toBe(404);

    await processed(t, versionId);
  }, 90_000);

  it('refuses a file that is not audio when it finishes, and leaves nothing in the bucket', async () => {
    const db = t.deps.database.db;
    // The earlier tests' versions finish on their own time (the FLAC just after 'completed'):
    // the snapshot waits for them first.
    await eventually(async () => {
      const rows = await db.selectFrom('versions').select(['status', 'renditions']).execute();
      return rows.every(
        (r) =>
          r.status === 'failed' ||
          (r.status === 'completed' && (r.renditions ?? '').includes('"lossless"')),
      );
    });
    const before = (await bucket.list('')).map((object) => object.key).sort();
    const client = tus(base, owner.cookie);
    const text = Buffer.from('These are my lyrics, not a song file.\n'.repeat(200));
    const created = await client.create(text.length, {
      ...versionMetadata(),
      filename: 'lyrics.wav',
    });
    const url = created.headers.get('location') as string;
    const last = await client.patch(url, 0, text);
    expect(last.status).toBe(415);
    expect(JSON.parse(await last.text())).toEqual({
      error: PROJECT_MESSAGES.invalidType,
      code: 'unsupported',
    });
    expect((await bucket.list('')).map((object) => object.key).sort()).toEqual(before);
    expect(openMultipartUploads()).toEqual([]);
    expect(
      await db
        .selectFrom('resumable_uploads')
        .select('id')
        .where('id', '=', url.split('/').pop() as string)
        .execute(),
    ).toEqual([]);
  });

  it('removes a cancelled upload (tus termination): multipart upload aborted, objects and row gone', async () => {
    const client = tus(base, owner.cookie);
    const created = await client.create(wav.length, versionMetadata());
    const url = created.headers.get('location') as string;
    const id = url.split('/').pop() as string;
    expect((await client.patch(url, 0, wav.subarray(0, 1000))).status).toBe(204);
    expect(openMultipartUploads()).toHaveLength(1);

    const cancelled = await fetch(`${base}${url}`, {
      method: 'DELETE',
      headers: { 'tus-resumable': '1.0.0', origin: ORIGIN, cookie: owner.cookie },
    });
    expect(cancelled.status).toBe(204);
    expect(await tusKeys()).toEqual([]);
    expect(openMultipartUploads()).toEqual([]);
    expect(
      await t.deps.database.db
        .selectFrom('resumable_uploads')
        .select('id')
        .where('id', '=', id)
        .execute(),
    ).toEqual([]);
    expect((await client.head(url)).status).toBe(404);
  });

  it('expires an upload left for 24 hours: its multipart upload aborted, its objects removed', async () => {
    const client = tus(base, owner.cookie);
    const created = await client.create(wav.length, versionMetadata());
    const url = created.headers.get('location') as string;
    const id = url.split('/').pop() as string;
    expect((await client.patch(url, 0, wav.subarray(0, 1000))).status).toBe(204);
    expect((await tusKeys()).sort()).toEqual([`${id}.info`, `${id}.part`]);
    expect(openMultipartUploads()).toHaveLength(1);

    clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await client.head(url)).status).toBe(410);
    expect(await t.services.resumable.expire()).toBeGreaterThanOrEqual(1);
    expect(await tusKeys()).toEqual([]);
    expect(openMultipartUploads()).toEqual([]);
    expect((await client.head(url)).status).toBe(404);
  });
});
