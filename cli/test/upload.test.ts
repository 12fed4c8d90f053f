import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFile } from '../src/upload.js';
import { tempDir } from './harness';

// The server may refuse an upload before it has read the whole file. The client must report the
// refusal and let go of the connection; an unfinished request would keep `takes` running.
describe('uploadFile, when the server answers before the upload is done', () => {
  let dir: string;
  let server: http.Server;
  let url: string;
  const closed: Promise<void>[] = [];

  beforeAll(async () => {
    dir = tempDir('upload');
    server = http.createServer((request, response) => {
      // Answers at once, without reading the body.
      response.writeHead(413, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'File too large. Maximum size is 500MB.' }));
    });
    server.on('connection', (socket) => {
      closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/bounces/uploads/u1`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms),
      ),
    ]);

  for (const [label, bytes] of [
    ['a large file', 16 * 1024 * 1024],
    ['a small file', 3_000],
  ] as const) {
    it(`reports the refusal of ${label} and closes the connection`, async () => {
      const file = path.join(dir, `${bytes}.wav`);
      fs.writeFileSync(file, Buffer.alloc(bytes, 1));
      const before = closed.length;
      await expect(
        uploadFile({ url, token: 't', file, size: bytes, contentType: 'audio/wav' }),
      ).rejects.toThrow('File too large. Maximum size is 500MB. (HTTP 413)');
      expect(closed.length).toBe(before + 1);
      await within(closed[before]!, 5_000);
    });
  }
});
