import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResponse, Repository } from '@takes/contract';
import { api, eventually, newUser, ORIGIN } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDialect } from '../../test/test-database';

/**
 * Uploads over a real socket (inject() has no socket, so no timeouts and no half-sent bodies):
 * a body that ends early gets 400 at once, a body that stalls gets 408 after the idle timeout,
 * a slow body that keeps moving succeeds, and none of them leaves a file or a row behind.
 */
describe(`uploads that end early or stall (${testDialect()})`, () => {
  const IDLE_SECONDS = 1;
  let dir: string;
  let wav: Buffer;
  let t: TestApp;
  let port: number;
  let cookie: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-timeouts-'));
    wav = fs.readFileSync(await makeAudio(dir, 'wav', 2, 'Take.wav'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function start(): Promise<void> {
    t = await createTestApp({
      env: {
        HTTP_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
        HTTP_HEADERS_TIMEOUT_SECONDS: '2',
        HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      },
    });
    cookie = await newUser(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  }
  afterEach(async () => {
    await t.close();
  });

  function head(
    method: string,
    url: string,
    contentLength: number,
    headers: Record<string, string>,
  ): Buffer {
    const lines = [
      `${method} ${url} HTTP/1.1`,
      'Host: localhost',
      `Origin: ${ORIGIN}`,
      `Content-Length: ${contentLength}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
  }

  function multipartHead(url: string, contentLength: number): Buffer {
    return head('POST', url, contentLength, {
      Cookie: cookie,
      'Content-Type': 'multipart/form-data; boundary=x',
    });
  }

  async function nothingLeft(): Promise<void> {
    await eventually(() => fs.readdirSync(t.deps.tmpDir).length === 0, 5000);
    const db = t.deps.database.db;
    expect(await db.selectFrom('versions').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('projects').select('id').execute()).toEqual([]);
    expect(await t.deps.storage.list('')).toEqual([]);
    const partFiles = path.join(t.dir, 'objects', '.tmp');
    expect(fs.existsSync(partFiles) ? fs.readdirSync(partFiles) : []).toEqual([]);
  }

  // The body from the issue: a file part that starts and is never closed, nothing more.
  const TRUNCATED = (field: string, filename: string) =>
    Buffer.from(
      `--x\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n\r\nRIFF`,
    );

  it('a multipart upload whose body ends inside the file gets 400 at once and leaves nothing', async () => {
    await start();
    const body = TRUNCATED('audio_file', 'a.wav');
    const response = await send(port, [multipartHead('/api/versions/upload', body.length), body]);
    expect(response.status, response.body).toBe(400);
    expect(response.ms).toBeLessThan(5000);
    expect(JSON.parse(response.body)).toEqual({
      error: 'The upload ended before the whole file arrived. Please try again.',
      code: 'invalid',
    });
    await nothingLeft();
    // The server is still well: a complete upload on a new connection works.
    const good = await api(t, cookie).upload({ content: wav, name: 'Take.wav' }, {});
    expect(good.statusCode, good.body).toBe(201);
  });

  it('an avatar or cover whose multipart body ends inside the image gets 400 at once', async () => {
    await start();
    const avatar = TRUNCATED('avatar', 'me.png');
    const avatarResponse = await send(port, [
      multipartHead('/api/profile/avatar', avatar.length),
      avatar,
    ]);
    expect(avatarResponse.status, avatarResponse.body).toBe(400);
    expect(JSON.parse(avatarResponse.body)).toHaveProperty('error');

    const repo = (await api(t, cookie).post('/api/repos', { name: 'Night Drive' })).json<{
      repo: Repository;
    }>().repo;
    const cover = TRUNCATED('cover_image', 'cover.png');
    const coverResponse = await send(port, [
      multipartHead(`/api/repos/${repo.id}/cover`, cover.length),
      cover,
    ]);
    expect(coverResponse.status, coverResponse.body).toBe(400);
    expect(JSON.parse(coverResponse.body)).toHaveProperty('error');
    await nothingLeft();
  });

  it('a multipart upload that stalls mid-file is cut off with 408 after the idle timeout', async () => {
    await start();
    const prefix = Buffer.from(
      '--x\r\nContent-Disposition: form-data; name="audio_file"; filename="Take.wav"\r\n' +
        'Content-Type: audio/wav\r\n\r\n',
    );
    const suffix = Buffer.from('\r\n--x--\r\n');
    const total = prefix.length + wav.length + suffix.length;
    // Half the file, then silence: the connection stays open but no byte comes.
    const response = await send(port, [
      multipartHead('/api/versions/upload', total),
      prefix,
      wav.subarray(0, wav.length / 2),
    ]);
    expect(response.status, response.body).toBe(408);
    expect(response.ms).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000 - 100);
    expect(response.ms).toBeLessThan(IDLE_SECONDS * 1000 + 4000);
    expect(JSON.parse(response.body)).toHaveProperty('error');
    expect(response.closed).toBe(true);
    await nothingLeft();
  });

  it('a raw bounce PUT that stalls is cut off with 408 and its upload is forgotten', async () => {
    await start();
    const owner = api(t, cookie);
    const repo = (await owner.post('/api/repos', { name: 'Night Drive' })).json<{
      repo: Repository;
    }>().repo;
    const started = await owner.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'Take.wav',
      content_type: 'audio/wav',
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    const response = await send(port, [
      head('PUT', new URL(publish.upload_url).pathname, wav.length, {
        'Content-Type': 'application/octet-stream',
        'x-upsert-token': publish.upload_token,
      }),
      wav.subarray(0, 1000),
    ]);
    expect(response.status, response.body).toBe(408);
    expect(response.ms).toBeLessThan(IDLE_SECONDS * 1000 + 4000);
    await eventually(
      async () =>
        (await t.deps.database.db.selectFrom('bounce_uploads').select('id').execute()).length === 0,
      5000,
    );
    await eventually(() => fs.readdirSync(t.deps.tmpDir).length === 0, 5000);
    expect(await t.deps.storage.list('originals/')).toEqual([]);
  });

  it('a slow upload that keeps moving succeeds although it lasts several idle timeouts', async () => {
    await start();
    const prefix = Buffer.from(
      '--x\r\nContent-Disposition: form-data; name="audio_file"; filename="Take.wav"\r\n' +
        'Content-Type: audio/wav\r\n\r\n',
    );
    const body = Buffer.concat([prefix, wav, Buffer.from('\r\n--x--\r\n')]);
    // About 3 s in all, never more than 0.4 s without a byte.
    const steps: Array<Buffer | number> = [multipartHead('/api/versions/upload', body.length)];
    const pieces = 8;
    const size = Math.ceil(body.length / pieces);
    for (let i = 0; i < pieces; i++) {
      steps.push(body.subarray(i * size, (i + 1) * size), 400);
    }
    const response = await send(port, steps, 30_000);
    expect(response.status, response.body).toBe(201);
    expect(response.totalMs).toBeGreaterThan(IDLE_SECONDS * 1000 * 2);
  });

  it('a connection that stops mid-headers, or sits idle after an answer, is closed', async () => {
    await start();
    const partial = await send(
      port,
      [Buffer.from('GET /api/health HTTP/1.1\r\nHost: loc')],
      10_000,
    );
    expect(partial.closed).toBe(true);
    // Closed with Node's 408 or silently, but never left open.
    expect([0, 408]).toContain(partial.status);
    expect(partial.ms).toBeLessThan(5000);

    const idle = await send(
      port,
      [Buffer.from('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n')],
      10_000,
      { waitForClose: true },
    );
    expect(idle.status).toBe(200);
    expect(idle.closed).toBe(true);
    expect(idle.ms).toBeLessThan(5000);
  });
});

interface RawResponse {
  /** 0 when the connection closed without an answer. */
  status: number;
  body: string;
  /** Milliseconds from the last byte we sent to the answer (or the close). */
  ms: number;
  /** Milliseconds from the first byte we sent to the answer (or the close). */
  totalMs: number;
  closed: boolean;
}

/**
 * Writes each Buffer in turn on a new connection (a number is a pause in milliseconds), then
 * waits for one whole answer (and, with waitForClose, for the server to close the connection).
 * Fails if neither an answer nor a close comes within `limitMs`: the hang under test.
 */
function send(
  port: number,
  steps: Array<Buffer | number>,
  limitMs = 10_000,
  options: { waitForClose?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let sentAt = Date.now();
    let startedAt = Date.now();
    let answered: RawResponse | undefined;
    let finished = false;
    const finish = (result: RawResponse) => {
      if (finished) return;
      finished = true;
      clearTimeout(limit);
      socket.destroy();
      resolve(result);
    };
    const limit = setTimeout(() => {
      finished = true;
      socket.destroy();
      reject(new Error(`no answer and no close within ${limitMs} ms`));
    }, limitMs);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0 || answered) return;
      const headText = received.subarray(0, end).toString();
      const length = Number(/content-length:\s*(\d+)/i.exec(headText)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      answered = {
        status: Number(headText.split(' ')[1]),
        body: received.subarray(end + 4, end + 4 + length).toString(),
        ms: Date.now() - sentAt,
        totalMs: Date.now() - startedAt,
        closed: false,
      };
      if (!options.waitForClose && !/connection:\s*close/i.test(headText)) finish(answered);
    });
    socket.on('close', () => {
      const ms = Date.now() - sentAt;
      const totalMs = Date.now() - startedAt;
      finish(
        answered
          ? { ...answered, closed: true }
          : { status: 0, body: '', ms, totalMs, closed: true },
      );
    });
    const write = async () => {
      startedAt = Date.now();
      for (const step of steps) {
        if (finished || socket.destroyed) return;
        if (typeof step === 'number') await new Promise((r) => setTimeout(r, step));
        else socket.write(step);
        sentAt = Date.now();
      }
    };
    socket.once('connect', () => void write());
  });
}
