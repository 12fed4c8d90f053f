import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CHUNK_BYTES, FileBody } from './file-body';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The large-chunk file body behind every local-store media response, over real sockets: its
 * buffers are reused, so bytes of one response must never show up in another's.
 */
describe('FileBody (large reads into reused buffers)', () => {
  let dir: string;
  let file: string;
  let content: Buffer;
  let app: FastifyInstance;
  let origin: string;
  const handles: fsp.FileHandle[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-file-body-'));
    file = path.join(dir, 'audio.bin');
    // Several chunks and a part-chunk at the end.
    content = randomBytes(FILE_CHUNK_BYTES * 20 + 12_345);
    fs.writeFileSync(file, content);
    app = Fastify();
    app.get('/file', async (request, reply) => {
      const query = request.query as { start?: string; end?: string };
      const start = Number(query.start ?? 0);
      const end = Number(query.end ?? content.length - 1);
      const handle = await fsp.open(file, 'r');
      handles.push(handle);
      reply.header('content-length', String(end - start + 1));
      return reply.send(new FileBody(handle, start, end));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the whole file and ranges byte for byte, many at once, and closes each file', async () => {
    const ranges: [number, number][] = [
      [0, content.length - 1],
      [1, content.length - 2],
      [FILE_CHUNK_BYTES - 1, FILE_CHUNK_BYTES * 3 + 1],
      [1_048_576, 1_048_576 + 65_535],
      [content.length - 1, content.length - 1],
      [0, content.length - 1],
      [777, content.length - 1],
      [0, content.length - 1],
    ];
    handles.length = 0;
    const bodies = await Promise.all(
      ranges.map(async ([start, end]) => {
        const response = await fetch(`${origin}/file?start=${start}&end=${end}`);
        return Buffer.from(await response.arrayBuffer());
      }),
    );
    ranges.forEach(([start, end], i) => {
      const body = bodies[i] as Buffer;
      expect(body.length).toBe(end - start + 1);
      expect(sha(body)).toBe(sha(content.subarray(start, end + 1)));
    });
    expect(handles).toHaveLength(ranges.length);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const handle of handles) expect(handle.fd).toBe(-1);
  });

  it('keeps bytes apart when a client stalls (buffers go back only once written)', async () => {
    // A client that stops reading after its first bytes: the kernel's buffers fill, the server's
    // last write stays queued in Node (holding its buffer) while other responses read.
    let stalled!: () => void;
    const stalledNow = new Promise<void>((resolve) => (stalled = resolve));
    let goOn!: () => void;
    const resume = new Promise<void>((resolve) => (goOn = resolve));
    const slow = new Promise<Buffer>((resolve, reject) => {
      http
        .get(`${origin}/file?start=3&end=${content.length - 1}`, (response) => {
          const chunks: Buffer[] = [];
          response.once('data', () => {
            response.pause();
            setTimeout(stalled, 200);
            void resume.then(() => response.resume());
          });
          response.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
          response.on('end', () => resolve(Buffer.concat(chunks)));
          response.on('error', reject);
        })
        .on('error', reject);
    });
    await stalledNow;
    // Fast readers meanwhile take buffers from the same pool and fill them.
    const fast = await Promise.all(
      [0, 1, 2, 3].map(async () =>
        Buffer.from(await (await fetch(`${origin}/file`)).arrayBuffer()),
      ),
    );
    goOn();
    for (const body of fast) expect(sha(body)).toBe(sha(content));
    expect(sha(await slow)).toBe(sha(content.subarray(3)));
  });

  it('closes the file when the client goes away half-way', async () => {
    handles.length = 0;
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${origin}/file`, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
    });
    const handle = handles[0] as fsp.FileHandle;
    for (let i = 0; i < 100 && handle.fd !== -1; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handle.fd).toBe(-1);
  });

  it('is an ordinary Readable when read without pipe', async () => {
    const handle = await fsp.open(file, 'r');
    const chunks: Buffer[] = [];
    for await (const chunk of new FileBody(handle, 10, content.length - 11))
      chunks.push(chunk as Buffer);
    expect(sha(Buffer.concat(chunks))).toBe(sha(content.subarray(10, content.length - 10)));
    expect(handle.fd).toBe(-1);
  });

  it('fails instead of sending short when the file is shorter than promised', async () => {
    const short = path.join(dir, 'short.bin');
    fs.writeFileSync(short, content.subarray(0, 1000));
    const handle = await fsp.open(short, 'r');
    const chunks: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of new FileBody(handle, 0, 1999)) chunks.push(chunk as Buffer);
      })(),
    ).rejects.toThrow(/ended before/);
  });
});
