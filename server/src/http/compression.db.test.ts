import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../../test/audio-fixtures';
import { buildProject, buildUser, buildVersion, depsOf } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { decodeBody } from '../../test/decode-body';

const ANY = 'br, gzip, deflate';

/** Compression in the whole app: JSON answers are compressed, audio and live events never. */
describe('compression of API answers', () => {
  let t: TestApp;
  let dir: string;
  let cookie: string;
  let versionId: string;
  let wav: Buffer;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-compression-'));
    t = await createTestApp();
    const db = t.deps.database.db;
    const owner = await buildUser(db);
    cookie = owner.cookie;
    // Enough projects for a list well above 1 KB.
    for (let i = 0; i < 12; i++) await buildProject(db, owner.id, { name: `Night Drive ${i}` });
    const { project, branch } = await buildProject(db, owner.id, { name: 'Tone' });
    const file = await makeAudio(dir, 'wav', 1, 'Tone.wav');
    wav = fs.readFileSync(file);
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file, processed: true },
    );
    versionId = version.id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });

  it('compresses JSON above 1 KB: brotli, else gzip, with Vary', async () => {
    const plain = await get('/api/projects');
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [accept, expected] of [
      [ANY, 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await get('/api/projects', { 'accept-encoding': accept });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(expected);
      expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decodeBody(expected, response.rawPayload).toString())).toEqual(
        plain.json(),
      );
    }
    // The OpenAPI document, a big JSON answer outside the contract's routes.
    const doc = await get('/api/openapi.json', { 'accept-encoding': ANY });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decodeBody('br', doc.rawPayload).toString())).toHaveProperty('openapi');
  });

  it('leaves JSON under 1 KB as it is', async () => {
    const response = await get('/api/auth/providers', { 'accept-encoding': ANY });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toHaveProperty('google');
  });

  it('never compresses audio: a stream, whole or by range, and a download', async () => {
    const original = await get(`/api/versions/${versionId}/stream?quality=original`, {
      'accept-encoding': ANY,
    });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('audio/wav');
    expect(original.headers['content-encoding']).toBeUndefined();
    expect(original.rawPayload.equals(wav)).toBe(true);

    const ranged = await get(`/api/versions/${versionId}/stream?quality=original`, {
      'accept-encoding': ANY,
      range: 'bytes=100-4195',
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.rawPayload.equals(wav.subarray(100, 4196))).toBe(true);

    const standard = await get(`/api/versions/${versionId}/stream`, { 'accept-encoding': ANY });
    expect(standard.statusCode).toBe(200);
    expect(standard.headers['content-type']).toBe('audio/mpeg');
    expect(standard.headers['content-encoding']).toBeUndefined();
    expect(String(standard.rawPayload.length)).toBe(standard.headers['content-length']);

    const download = await get(`/api/versions/${versionId}/download`, { 'accept-encoding': ANY });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(download.headers['content-encoding']).toBeUndefined();
    expect(download.rawPayload.equals(wav)).toBe(true);
  });

  it('never compresses the live-events stream', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const { headers, first } = await new Promise<{
      headers: http.IncomingHttpHeaders;
      first: string;
    }>((resolve, reject) => {
      const request = http.get(`http://127.0.0.1:${port}/api/events`, {
        headers: { cookie, accept: 'text/event-stream', 'accept-encoding': ANY },
      });
      request.once('error', reject);
      request.once('response', (response) => {
        response.once('data', (chunk: Buffer) => {
          resolve({ headers: response.headers, first: chunk.toString('utf8') });
          request.destroy();
        });
      });
    });
    expect(headers['content-type']).toContain('text/event-stream');
    expect(headers['content-encoding']).toBeUndefined();
    // Readable as it arrives: plain text, not a compressed block.
    expect(first).toMatch(/^(retry:|:|data:)/);
  });
});
