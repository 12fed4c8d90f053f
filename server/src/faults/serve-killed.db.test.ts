import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResponse } from '@takes/contract';
import { eventually, multipartUpload } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { Cluster, type ClusterProcess } from '../../test/cluster';
import { buildRepo, buildUser, type BuiltUser } from '../../test/factories';
import { TestClock } from '../../test/test-app';
import { testDialect } from '../../test/test-database';
import { loadConfig } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { expireUpload } from '../modules/repos/upload-expiry';
import { openRuntime } from '../runtime';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A `serve` process SIGKILLed while a client is half-way through sending an upload or a bounce's
 * PUT (2 serve with RUN_WORKER=false and 1 worker; PostgreSQL + pg-boss + S3, or SQLite + the
 * embedded queue + a shared objects folder): no row without its audio, no bounce half-made, the
 * scratch files it left are removed by the start-up sweep and the abandoned publish by its
 * expiry job, and the client's retry on the other process succeeds.
 */
describe(`serve SIGKILLed mid-upload (${testDialect()})`, () => {
  const postgres = testDialect() === 'postgres';
  let cluster: Cluster;
  let serveA: ClusterProcess;
  let serveB: ClusterProcess;
  let database: DatabaseHandle;
  let owner: BuiltUser;
  let repoId: string;
  let dir: string;
  let wav: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-serve-killed-'));
    wav = await makeAudio(dir, 'wav', 3, 'Half Sent.wav');
    cluster = await Cluster.create('servekill', {
      dialect: testDialect(),
      queue: postgres ? 'pgboss' : 'embedded',
      s3: postgres,
      // Without S3 the processes share one objects folder, as one machine's would.
      env: { RUN_WORKER: 'false', ...(postgres ? {} : { STORAGE_DIR: path.join(dir, 'objects') }) },
    });
    [serveA, serveB] = await Promise.all([
      cluster.start('serve-a', 'serve'),
      cluster.start('serve-b', 'serve'),
    ]);
    await serveA.ready();
    await serveB.ready();
    await (await cluster.start('worker', 'worker')).ready();
    database = openDatabase(configOf('test').database);
    owner = await buildUser(database.db);
    repoId = (await buildRepo(database.db, owner.id, { name: 'Night Drive' })).id;
  }, 120_000);

  afterAll(async () => {
    await database?.destroy();
    await cluster?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no version or bounce half-made; the sweep and the expiry job remove what it left; the retry on the other process succeeds', async () => {
    // 1. An upload: half of its body is in when serve-a dies.
    const upload = multipartUpload({ path: wav }, {});
    const cut = await sendHalfThenKill(serveA, 'POST', '/api/versions/upload', upload.body, {
      'content-type': upload.contentType,
      cookie: owner.cookie,
    });
    expect(cut.scratch).toMatch(/^upload-/);
    expect(await count('versions')).toBe(0);
    const retried = await send(serveB, 'POST', '/api/versions/upload', upload.body, {
      'content-type': upload.contentType,
      cookie: owner.cookie,
    });
    expect(retried.status, retried.body).toBe(201);
    const { version_id: versionId } = JSON.parse(retried.body) as { version_id: string };

    // 2. A bounce's PUT: half of the file is in when serve-a (started again) dies.
    serveA = await cluster.start('serve-a', 'serve');
    await serveA.ready();
    const publish = await startPublish(serveA);
    const bytes = fs.readFileSync(wav);
    const putCut = await sendHalfThenKill(
      serveA,
      'PUT',
      new URL(publish.upload_url).pathname,
      bytes,
      {
        'content-type': 'application/octet-stream',
        'x-upsert-token': publish.upload_token,
      },
    );
    expect(putCut.scratch).toMatch(/^bounce-/);
    expect(await count('bounces')).toBe(0);
    expect(await uploadStatus(publish.upload_id)).toBe('receiving');
    // The token was single-use and is spent: the client starts the publish again.
    const sameToken = await send(serveB, 'PUT', new URL(publish.upload_url).pathname, bytes, {
      'content-type': 'application/octet-stream',
      'x-upsert-token': publish.upload_token,
    });
    expect(sameToken.status, sameToken.body).toBe(409);
    const again = await startPublish(serveB);
    const put = await send(serveB, 'PUT', new URL(again.upload_url).pathname, bytes, {
      'content-type': 'application/octet-stream',
      'x-upsert-token': again.upload_token,
    });
    expect(put.status, put.body).toBe(200);
    const completed = await send(
      serveB,
      'POST',
      '/api/bounces/complete',
      JSON.stringify({
        repo_id: repoId,
        branch: 'main',
        filename: 'Half Sent.wav',
        upload_id: again.upload_id,
      }),
      { 'content-type': 'application/json', cookie: owner.cookie },
    );
    expect(completed.status, completed.body).toBe(201);

    // 3. The clean-up: what serve-a left is still there until a process of its machine starts
    // a day later (its start-up sweep) and the abandoned publish's expiry job runs.
    const tmpA = path.join(cluster.workDir, 'serve-a', 'tmp');
    expect(fs.readdirSync(tmpA).sort()).toEqual([cut.scratch, putCut.scratch].sort());
    const clock = new TestClock();
    clock.advance(DAY_MS + 60_000);
    const later = await openRuntime(configOf('serve-a'), pino({ level: 'silent' }), { clock });
    try {
      expect(fs.readdirSync(tmpA)).toEqual([]);
      await expireUpload(
        { db: later.database.db, storage: later.storage, clock },
        publish.upload_id,
      );
    } finally {
      await later.close();
    }
    expect(await uploadStatus(publish.upload_id)).toBeUndefined();
    expect(await count('original_refs')).toBe(0);

    // 4. Nothing lost: the retried version and bounce are processed, each with its audio.
    await eventually(async () => (await statusOf('versions', versionId)) === 'completed', 60_000);
    await eventually(async () => (await count('bounces', 'completed')) === 1, 60_000);
    expect(await count('versions')).toBe(1);
  }, 180_000);

  function configOf(name: string) {
    return loadConfig({ ...cluster.environment(name), PORT: '1' });
  }

  async function startPublish(serve: ClusterProcess): Promise<PublishResponse> {
    const started = await send(
      serve,
      'POST',
      '/api/bounces/publish',
      JSON.stringify({
        repo_id: repoId,
        branch: 'main',
        filename: 'Half Sent.wav',
        content_type: 'audio/wav',
      }),
      { 'content-type': 'application/json', cookie: owner.cookie },
    );
    expect(started.status, started.body).toBe(201);
    return JSON.parse(started.body) as PublishResponse;
  }

  /**
   * Sends the headers and half of `body` (announcing all of it), waits until the process has
   * written some of it to a scratch file, then SIGKILLs the process. Returns that file's name.
   */
  async function sendHalfThenKill(
    serve: ClusterProcess,
    method: string,
    pathname: string,
    body: Buffer,
    headers: Record<string, string>,
  ): Promise<{ scratch: string }> {
    const tmp = path.join(cluster.workDir, serve.name, 'tmp');
    const before = new Set(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []);
    const request = http.request(serve.url(pathname), {
      method,
      headers: { ...headers, origin: serve.url(''), 'content-length': String(body.length) },
    });
    const ended = new Promise<void>((resolve) => {
      request.on('error', () => resolve());
      request.on('response', (response) => {
        response.resume();
        response.on('close', () => resolve());
      });
    });
    request.write(body.subarray(0, Math.floor(body.length / 2)));
    let scratch: string | undefined;
    await eventually(() => {
      scratch = fs
        .readdirSync(tmp)
        .find((name) => !before.has(name) && fs.statSync(path.join(tmp, name)).size > 0);
      return scratch !== undefined;
    }, 20_000);
    await serve.kill('SIGKILL');
    await ended;
    return { scratch: scratch as string };
  }

  async function count(table: 'versions' | 'bounces' | 'original_refs', status?: string) {
    let query = database.db
      .selectFrom(table as 'versions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'));
    if (status) query = query.where('status', '=', status as 'completed');
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  async function statusOf(table: 'versions', id: string) {
    const row = await database.db
      .selectFrom(table)
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.status;
  }

  async function uploadStatus(uploadId: string) {
    const row = await database.db
      .selectFrom('bounce_uploads')
      .select('status')
      .where('id', '=', uploadId)
      .executeTakeFirst();
    return row?.status;
  }
});

/** One whole request over HTTP, its status and body. */
async function send(
  serve: ClusterProcess,
  method: string,
  pathname: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const response = await fetch(serve.url(pathname), {
    method,
    headers: { ...headers, origin: serve.url('') },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.text() };
}
