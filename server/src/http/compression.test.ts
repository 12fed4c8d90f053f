import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJsonType, registerCompression, SYNC_COMPRESS_MAX_BYTES } from './compression';
import { decodeBody } from '../../test/decode-body';

/** Enough distinct-ish text to be worth compressing (about 4 KB). */
const BIG = Array.from({ length: 120 }, (_, i) => `row ${i} of the take list`);
const BIG_TEXT = BIG.join('\n');

/** On-the-fly compression on a bare app: which answers it touches, and how. */
describe('JSON compression', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await registerCompression(app);
    app.get('/json/big', () => ({ rows: BIG }));
    app.get('/json/small', () => ({ ok: true }));
    // Distinct rows (a hash each) of about 40 and 400 KB: below and above the one-call size.
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        i,
        id: createHash('sha256').update(`${i}`).digest('hex'),
      }));
    app.get('/json/40k', () => ({ rows: rows(450) }));
    app.get('/json/400k', () => ({ rows: rows(4500) }));
    app.get('/problem', (_request, reply) =>
      reply.type('application/problem+json').send(JSON.stringify({ detail: BIG_TEXT })),
    );
    app.get('/html', (_request, reply) => reply.type('text/html').send(`<p>${BIG_TEXT}</p>`));
    app.get('/text', (_request, reply) => reply.type('text/plain').send(BIG_TEXT));
    app.get('/tar', (_request, reply) =>
      reply.type('application/x-tar').send(Buffer.from(BIG_TEXT)),
    );
    app.get('/audio', (_request, reply) => reply.type('audio/wav').send(Buffer.from(BIG_TEXT)));
    app.get('/untyped-stream', (_request, reply) => reply.send(Readable.from([BIG_TEXT])));
    app.get('/encoded', (_request, reply) =>
      reply
        .type('application/json')
        .header('content-encoding', 'gzip')
        .send(zlib.gzipSync(JSON.stringify({ rows: BIG }))),
    );
    app.get('/partial', (_request, reply) =>
      reply
        .code(206)
        .type('application/json')
        .header('content-range', 'bytes 0-3999/9000')
        .send(JSON.stringify({ rows: BIG })),
    );
    app.post('/echo', (request) => request.body);
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('sends JSON above 1 KB as brotli, else gzip, else plain, with Vary', async () => {
    const plain = await get('/json/big');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      const response = await get('/json/big', accept);
      expect(response.headers['content-encoding'], accept).toBe(expected);
      expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(decodeBody(expected, response.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
    // deflate alone, or identity: as it is.
    for (const accept of ['deflate', 'identity']) {
      const response = await get('/json/big', accept);
      expect(response.headers['content-encoding'], accept).toBeUndefined();
      expect(response.rawPayload.equals(plain.rawPayload)).toBe(true);
    }
  });

  it('compresses a JSON answer up to 64 KB in one call (with its length), a bigger one as a stream', async () => {
    const whole = await get('/json/40k', 'br');
    const wholePlain = await get('/json/40k');
    expect(wholePlain.rawPayload.length).toBeGreaterThan(30_000);
    expect(wholePlain.rawPayload.length).toBeLessThan(SYNC_COMPRESS_MAX_BYTES);
    expect(whole.headers['content-encoding']).toBe('br');
    expect(Number(whole.headers['content-length'])).toBe(whole.rawPayload.length);
    expect(decodeBody('br', whole.rawPayload).equals(wholePlain.rawPayload)).toBe(true);
    const streamedPlain = await get('/json/400k');
    expect(streamedPlain.rawPayload.length).toBeGreaterThan(SYNC_COMPRESS_MAX_BYTES);
    for (const encoding of ['br', 'gzip'] as const) {
      const streamed = await get('/json/400k', encoding);
      expect(streamed.headers['content-encoding']).toBe(encoding);
      expect(streamed.headers['content-length']).toBeUndefined();
      expect(decodeBody(encoding, streamed.rawPayload).equals(streamedPlain.rawPayload)).toBe(true);
    }
  });

  it('compresses the +json types too', async () => {
    const response = await get('/problem', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decodeBody('br', response.rawPayload).toString())).toEqual({
      detail: BIG_TEXT,
    });
  });

  it('leaves JSON under 1 KB as it is', async () => {
    const response = await get('/json/small', 'br, gzip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ ok: true });
  });

  it('never compresses what is not JSON, even text', async () => {
    for (const url of ['/html', '/text', '/tar', '/audio', '/untyped-stream']) {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(response.rawPayload.toString(), url).toContain(BIG_TEXT);
    }
  });

  it('leaves an answer already encoded, and a byte range, as they are', async () => {
    const encoded = await get('/encoded', 'br, gzip');
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(encoded.rawPayload).toString())).toEqual({ rows: BIG });
    const partial = await get('/partial', 'br, gzip');
    expect(partial.statusCode).toBe(206);
    expect(partial.headers['content-encoding']).toBeUndefined();
    expect(partial.json()).toEqual({ rows: BIG });
  });

  it('does not decompress request bodies', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ a: 1 })),
    });
    expect(response.statusCode).toBe(400);
  });

  it('knows JSON by its Content-Type', () => {
    expect(isJsonType('application/json')).toBe(true);
    expect(isJsonType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonType('application/problem+json')).toBe(true);
    expect(isJsonType('application/manifest+json; charset=utf-8')).toBe(true);
    expect(isJsonType('application/jsonl')).toBe(false);
    expect(isJsonType('text/json-ish')).toBe(false);
    expect(isJsonType('text/event-stream')).toBe(false);
    expect(isJsonType('application/octet-stream')).toBe(false);
    expect(isJsonType(undefined)).toBe(false);
  });
});
