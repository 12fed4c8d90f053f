import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCompression } from './compression';
import { registerSpa } from './spa';
import { decodeBody } from '../../test/decode-body';

/** The build step under test: web's `build` runs it after `vite build`. */
const PRECOMPRESS = fileURLToPath(new URL('../../../web/scripts/precompress.mjs', import.meta.url));

const lines = (what: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${what} ${i};`).join('\n');

/** A small web build: text files worth compressing, and files that are not. */
const FILES: Record<string, Buffer> = {
  'index.html': Buffer.from(`<!doctype html><div id="root"></div><!-- ${lines('page', 80)} -->`),
  'favicon.svg': Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${lines('<g/>', 60)}</svg>`),
  'assets/app-abc123.js': Buffer.from(lines('console.log("take")', 400)),
  'assets/app-abc123.css': Buffer.from(lines('.take { color: red }', 200)),
  'assets/tiny-abc123.txt': Buffer.from('a'),
  // Images and fonts are compressed already; these bytes would shrink, and must be left alone.
  'assets/cover-abc123.png': Buffer.alloc(8000, 7),
  'assets/font-abc123.woff2': Buffer.alloc(8000, 7),
  '.vite/manifest.json': Buffer.from(JSON.stringify({ rows: lines('entry', 100) })),
};

describe('the precompressed web build', () => {
  let dist: string;
  let app: FastifyInstance;
  const file = (name: string) => path.join(dist, name);

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-precompress-'));
    for (const [name, bytes] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(file(name)), { recursive: true });
      fs.writeFileSync(file(name), bytes);
    }
    execFileSync(process.execPath, [PRECOMPRESS, dist], { stdio: 'pipe' });
    app = Fastify();
    await registerCompression(app);
    await registerSpa(app, dist);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  describe('precompress.mjs', () => {
    it('writes a brotli and a gzip copy of each text file, decompressing to the original', () => {
      for (const name of [
        'index.html',
        'favicon.svg',
        'assets/app-abc123.js',
        'assets/app-abc123.css',
      ]) {
        const original = FILES[name] as Buffer;
        const br = fs.readFileSync(file(`${name}.br`));
        const gz = fs.readFileSync(file(`${name}.gz`));
        expect(br.length, name).toBeLessThan(original.length);
        expect(gz.length, name).toBeLessThan(original.length);
        expect(zlib.brotliDecompressSync(br).equals(original), name).toBe(true);
        expect(zlib.gunzipSync(gz).equals(original), name).toBe(true);
      }
    });

    it('leaves images, fonts, build records and files it cannot shrink alone', () => {
      for (const name of [
        'assets/cover-abc123.png',
        'assets/font-abc123.woff2',
        'assets/tiny-abc123.txt',
        '.vite/manifest.json',
      ]) {
        expect(fs.existsSync(file(`${name}.br`)), name).toBe(false);
        expect(fs.existsSync(file(`${name}.gz`)), name).toBe(false);
      }
    });

    it('can run again over the same build without compressing its copies', () => {
      const before = fs.readdirSync(file('assets')).sort();
      execFileSync(process.execPath, [PRECOMPRESS, dist], { stdio: 'pipe' });
      expect(fs.readdirSync(file('assets')).sort()).toEqual(before);
      expect(before.some((name) => name.endsWith('.br.br') || name.endsWith('.gz.gz'))).toBe(false);
    });
  });

  it('sends an asset as brotli, gzip or plain by Accept-Encoding, keeping its cache rule', async () => {
    const original = FILES['assets/app-abc123.js'] as Buffer;
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=1, gzip;q=0.5', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const response = await get(
        '/assets/app-abc123.js',
        accept ? { 'accept-encoding': accept } : {},
      );
      const label = accept ?? '(none)';
      expect(response.statusCode, label).toBe(200);
      expect(response.headers['content-encoding'], label).toBe(expected);
      expect(response.headers.vary, label).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control'], label).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-type'], label).toMatch(/javascript/);
      if (expected) expect(response.rawPayload.length, label).toBeLessThan(original.length / 2);
      expect(decodeBody(expected, response.rawPayload).equals(original), label).toBe(true);
    }
    const css = await get('/assets/app-abc123.css', { 'accept-encoding': 'br' });
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/text\/css/);
    expect(decodeBody('br', css.rawPayload).equals(FILES['assets/app-abc123.css'] as Buffer)).toBe(
      true,
    );
  });

  it('sends index.html compressed too, for the app root and for client routes', async () => {
    const original = FILES['index.html'] as Buffer;
    for (const url of ['/', '/dashboard', '/projects/p1', '/share/abc123']) {
      for (const [accept, expected] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['', undefined],
      ] as const) {
        const response = await get(url, accept ? { 'accept-encoding': accept } : {});
        const label = `${url} ${accept}`;
        expect(response.statusCode, label).toBe(200);
        expect(response.headers['content-type'], label).toMatch(/text\/html/);
        expect(response.headers['content-encoding'], label).toBe(expected);
        expect(response.headers.vary, label).toMatch(/accept-encoding/i);
        expect(response.headers['cache-control'], label).toBe('no-cache');
        expect(decodeBody(expected, response.rawPayload).equals(original), label).toBe(true);
      }
    }
  });

  it('sends images and fonts as they are', async () => {
    for (const name of ['assets/cover-abc123.png', 'assets/font-abc123.woff2']) {
      const response = await get(`/${name}`, { 'accept-encoding': 'br, gzip' });
      expect(response.headers['content-encoding'], name).toBeUndefined();
      expect(response.rawPayload.equals(FILES[name] as Buffer), name).toBe(true);
    }
  });

  it('answers a byte range from the plain file', async () => {
    const original = FILES['assets/app-abc123.js'] as Buffer;
    const response = await get('/assets/app-abc123.js', {
      'accept-encoding': 'br, gzip',
      range: 'bytes=10-99',
    });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-range']).toBe(`bytes 10-99/${original.length}`);
    expect(response.rawPayload.equals(original.subarray(10, 100))).toBe(true);
  });

  it('does not serve the compressed copies at addresses of their own', async () => {
    const response = await get('/assets/app-abc123.js.br', { 'accept-encoding': 'br' });
    expect(response.rawPayload.equals(fs.readFileSync(file('assets/app-abc123.js.br')))).toBe(
      false,
    );
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});
