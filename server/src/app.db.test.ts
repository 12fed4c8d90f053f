import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { LocalObjectStore } from './storage/local';
import type { ObjectStore } from './storage/object-store';

describe('app', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('reports database, storage and ffmpeg healthy', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    // Details (dialect, storage kind, ffmpeg version) are for the instance's admins only:
    // see modules/workspace/debug-access.db.test.ts.
    expect(response.json()).toEqual({
      status: 'ok',
      checks: { database: { status: 'ok' }, storage: { status: 'ok' }, ffmpeg: { status: 'ok' } },
    });
  });

  it('answers 503 naming the broken part when storage is unusable', async () => {
    t = await createTestApp({
      storage: (dir, signer) => {
        const blocker = path.join(dir, 'not-a-folder');
        fs.writeFileSync(blocker, 'x');
        return new LocalObjectStore(path.join(blocker, 'objects'), signer);
      },
    });
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 'error',
      checks: {
        database: { status: 'ok' },
        storage: { status: 'error' },
        ffmpeg: { status: 'ok' },
      },
    });
  });

  it('sends security headers and a request id on every response', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("media-src 'self' blob: data:");
    expect(csp).not.toMatch(/https?:\/\//);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const traced = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(traced.headers['x-request-id']).toBe('abc-123');
  });

  it('answers unknown API paths with the JSON error shape', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('answers bad input with 400 and the error shape', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/storage/a/b.mp3' });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; details: { path: string; message: string }[] }>();
    expect(body.error).toBe('Invalid input: expected string, received undefined');
    expect(body.details).toContainEqual({ path: '/expires', message: body.error });
  });

  it('publishes the OpenAPI document and a self-hosted docs page', async () => {
    t = await createTestApp();
    const spec = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json()).toMatchObject({
      openapi: expect.stringMatching(/^3\./) as unknown,
      paths: { '/api/health': {} },
    });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
    expect(docs.body).not.toMatch(/(src|href)="https?:\/\//);
  });

  it('serves the web app with index.html for client routes, and hashed assets', async () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-web-'));
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ webDistDir: web });
    for (const url of ['/', '/dashboard', '/projects/123/branches/4/versions/5', '/404']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<div id="root">');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const apiMiss = await t.app.inject({ method: 'GET', url: '/api/missing' });
    expect(apiMiss.json()).toEqual({ error: 'Not found', code: 'not_found' });
    fs.rmSync(web, { recursive: true, force: true });
  });

  describe('signed local storage URLs', () => {
    async function stored(store: ObjectStore, key: string, text: string) {
      await store.put(key, Readable.from([Buffer.from(text)]));
    }

    it('serves the object, whole or by range, and refuses bad ranges', async () => {
      t = await createTestApp();
      await stored(t.deps.storage, 'renditions/v1/high.mp3', '0123456789');
      const url = await t.deps.storage.signedUrl('renditions/v1/high.mp3', {
        expiresInSeconds: 60,
        downloadName: 'Song – mix.mp3',
      });
      const whole = await t.app.inject({ method: 'GET', url });
      expect(whole.statusCode).toBe(200);
      expect(whole.body).toBe('0123456789');
      expect(whole.headers['content-type']).toBe('audio/mpeg');
      expect(whole.headers['content-disposition']).toContain(
        "filename*=UTF-8''Song%20%E2%80%93%20mix.mp3",
      );
      const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=2-5' } });
      expect(part.statusCode).toBe(206);
      expect(part.body).toBe('2345');
      expect(part.headers['content-range']).toBe('bytes 2-5/10');
      expect(part.headers['content-length']).toBe('4');
      const bad = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=50-' } });
      expect(bad.statusCode).toBe(416);
      expect(bad.headers['content-range']).toBe('bytes */10');
    });

    it('refuses a tampered or expired link with 403', async () => {
      t = await createTestApp();
      await stored(t.deps.storage, 'a/b.mp3', 'x');
      const url = await t.deps.storage.signedUrl('a/b.mp3', { expiresInSeconds: 60 });
      const otherKey = await t.app.inject({
        method: 'GET',
        url: url.replace('a/b.mp3', 'a/c.mp3'),
      });
      expect(otherKey.statusCode).toBe(403);
      expect(otherKey.json()).toEqual({
        error: 'This link is invalid or has expired',
        code: 'forbidden',
      });
      const expired = await t.app.inject({
        method: 'GET',
        url: url.replace(/expires=\d+/, 'expires=1000'),
      });
      expect(expired.statusCode).toBe(403);
    });
  });
});
