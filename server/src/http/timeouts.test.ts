import net from 'node:net';
import type { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { registerIdleTimeout, serverTimeoutOptions } from './timeouts';

/**
 * The idle timeout is the client's: a server that is slow to answer, or slow to read a body
 * the client has already sent, must not be cut off by it.
 */
describe('HTTP timeout configuration', () => {
  it('has defaults, takes seconds, and refuses a request cap shorter than the headers one', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/takes-x' }).http).toEqual({
      headersTimeoutMs: 30_000,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
      requestTimeoutMs: 0,
    });
    expect(
      loadConfig({
        DATA_DIR: '/tmp/takes-x',
        HTTP_IDLE_TIMEOUT_SECONDS: '5',
        HTTP_REQUEST_TIMEOUT_SECONDS: '3600',
      }).http,
    ).toMatchObject({ idleTimeoutMs: 5000, requestTimeoutMs: 3_600_000 });
    expect(() =>
      loadConfig({ DATA_DIR: '/tmp/takes-x', HTTP_REQUEST_TIMEOUT_SECONDS: '10' }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: '/tmp/takes-x', HTTP_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(
      'HTTP_IDLE_TIMEOUT_SECONDS',
    );
  });
});

describe('HTTP idle timeout', () => {
  let app: FastifyInstance;
  afterEach(async () => {
    await app.close();
  });

  async function listen(): Promise<number> {
    app = Fastify({
      ...serverTimeoutOptions({
        headersTimeoutMs: 2000,
        idleTimeoutMs: 500,
        keepAliveTimeoutMs: 1000,
        requestTimeoutMs: 0,
      }),
    });
    registerIdleTimeout(app);
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // Works for 1.5 s (three idle timeouts) after the whole body has arrived, then answers.
    app.post('/slow-answer', async (request) => {
      await consume(request.body as Readable);
      await pause(1500);
      return { ok: true };
    });
    // Leaves the body unread for 1.5 s, then reads it all.
    app.post('/slow-reader', async (request) => {
      await pause(1500);
      return { bytes: await consume(request.body as Readable) };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as net.AddressInfo).port;
  }

  it('keeps the connection while the server works on a complete request', async () => {
    const port = await listen();
    const response = await post(port, '/slow-answer', Buffer.alloc(1000, 1));
    expect(response).toMatch(/^HTTP\/1.1 200/);
  });

  it('keeps the connection while bytes the client sent wait for the server to read them', async () => {
    const port = await listen();
    const response = await post(port, '/slow-reader', Buffer.alloc(4 * 1024 * 1024, 1));
    expect(response).toMatch(/^HTTP\/1.1 200/);
    expect(response).toContain(`{"bytes":${4 * 1024 * 1024}}`);
  });
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function consume(body: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of body) bytes += (chunk as Buffer).length;
  return bytes;
}

/** One POST over a real socket; resolves with everything the server sent until it closed. */
function post(port: number, url: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const limit = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('close', () => {
      clearTimeout(limit);
      resolve(received);
    });
    socket.write(
      `POST ${url} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body);
  });
}
