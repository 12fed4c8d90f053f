import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, type PublishResponse } from '@takes/contract';
import { api, eventually, losslessSettled, multipartUpload, ORIGIN } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { buildRepo, buildUser } from '../../test/factories';
import { publishFile, putUpload } from '../../test/repos-setup';
import { startLoopbackS3, type LoopbackS3 } from '../../test/s3-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDialect } from '../../test/test-database';
import { S3ObjectStore } from '../storage/s3';

/** An answer that does not come within this is a hang, whatever the machine's load. */
const HANG_MS = 20_000;

/**
 * The S3 server goes down while uploads are arriving: every request that needs it answers 503
 * "Storage is unavailable, please try again" within seconds, nothing is half-written, health
 * says so, and once S3 is back the same requests succeed.
 */
describe(`S3 server stopped during uploads (${testDialect()})`, () => {
  let s3: LoopbackS3;
  let t: TestApp;
  let dir: string;
  let wav: string;
  let otherWav: string;
  beforeAll(async () => {
    s3 = await startLoopbackS3();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-s3-down-'));
    wav = await makeAudio(dir, 'wav', 2, 'Before.wav');
    otherWav = await makeAudio(dir, 'wav', 3, 'During.wav');
    t = await createTestApp({ storage: () => new S3ObjectStore(s3.options) });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 to uploads, bounce PUTs and streams while S3 is down; all succeed once it is back', async () => {
    const db = t.deps.database.db;
    const user = await buildUser(db);
    const owner = api(t, user.cookie);
    const repo = await buildRepo(db, user.id, { name: 'Night Drive' });
    const first = await owner.upload({ path: wav }, {});
    expect(first.statusCode, first.body).toBe(201);
    const { version_id: versionId } = first.json<{ version_id: string }>();
    await t.deps.jobs.startWorking();
    await eventually(async () => (await status(versionId)) === 'completed');
    // The FLAC rendition is made after 'completed': its job and scratch folder are done first.
    await losslessSettled(t, versionId);
    await eventually(() => fs.readdirSync(t.deps.tmpDir).length === 0);
    expect((await health()).statusCode).toBe(200);
    const counts = await rowCounts();

    // The upload's body is half-way in when S3 goes down.
    const upload = multipartUpload({ path: otherWav }, {});
    const body = new PassThrough();
    body.write(upload.body.subarray(0, upload.body.length / 2));
    const uploading = t.app.inject({
      method: 'POST',
      url: '/api/versions/upload',
      payload: body,
      headers: { cookie: user.cookie, origin: ORIGIN, 'content-type': upload.contentType },
    });
    // The same for a bounce's PUT.
    const publish = await startPublish();
    const bounceBody = new PassThrough();
    const bounceBytes = fs.readFileSync(otherWav);
    bounceBody.write(bounceBytes.subarray(0, bounceBytes.length / 2));
    const putting = putUpload(t, publish.upload_url, bounceBody, publish.upload_token);

    await s3.stop();
    body.end(upload.body.subarray(upload.body.length / 2));
    bounceBody.end(bounceBytes.subarray(bounceBytes.length / 2));
    expectUnavailable(await notHung(uploading));
    expectUnavailable(await notHung(putting));
    expectUnavailable(await notHung(owner.get(`/api/versions/${versionId}/stream`)));
    // A publish whose PUT is refused is gone: the client starts again.
    expect(
      (
        await owner.post('/api/bounces/complete', {
          repo_id: repo.id,
          branch: 'main',
          filename: 'During.wav',
          upload_id: publish.upload_id,
        })
      ).statusCode,
    ).toBe(404);
    const down = await notHung(health());
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      status: 'error',
      checks: { storage: { status: 'error' } },
    });

    // Nothing half-written: no row without its audio, no upload claim, no scratch file.
    expect(await rowCounts()).toEqual(counts);
    expect(fs.readdirSync(t.deps.tmpDir)).toEqual([]);

    await s3.start();
    await eventually(async () => (await health()).statusCode === 200, HANG_MS);
    const retried = await owner.upload({ path: otherWav }, {});
    expect(retried.statusCode, retried.body).toBe(201);
    const retriedId = retried.json<{ version_id: string }>().version_id;
    const bounce = await publishFile(t, owner, repo.id, otherWav);
    expect(bounce.id).toBeTruthy();
    const stream = await owner.get(`/api/versions/${versionId}/stream`, { range: 'bytes=0-9' });
    expect(stream.statusCode).toBe(206);
    await eventually(async () => (await status(retriedId)) === 'completed');
    // The bounce's processing folder goes when its job ends.
    await eventually(() => fs.readdirSync(t.deps.tmpDir).length === 0);

    async function startPublish(): Promise<PublishResponse> {
      const started = await owner.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'During.wav',
        content_type: 'audio/wav',
      });
      expect(started.statusCode, started.body).toBe(201);
      return started.json<PublishResponse>();
    }
    async function status(id: string): Promise<string> {
      return (await owner.get(`/api/versions/${id}/processing`)).json<{ status: string }>().status;
    }
  }, 90_000);

  function health() {
    return t.app.inject({ method: 'GET', url: '/api/health' });
  }

  async function rowCounts(): Promise<Record<string, number>> {
    const db = t.deps.database.db;
    const tables = ['versions', 'bounces', 'bounce_uploads', 'original_refs', 'storage_cleanup'];
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const row = await db
        .selectFrom(table as 'versions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  }
});

function expectUnavailable(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toEqual({
    error: ERROR_MESSAGES.storageUnavailable,
    code: 'unavailable',
  });
}

function notHung<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS);
  });
  return Promise.race([work, hung]).finally(() => clearTimeout(timer));
}
