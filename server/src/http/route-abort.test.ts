import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { endpoints } from '@takes/contract';
import { registerErrorHandling } from './errors';
import { route } from './route';

/**
 * A listener who seeks (or closes the tab) aborts the audio response half-way. The handler's
 * `reply.send(stream)` returns the reply, a thenable that settles with nothing when the client
 * goes away: route() must not answer a second time (found by `npm run bench:load`, which logged
 * ERR_HTTP_HEADERS_SENT and a 500 for every stream still open when the load stopped).
 */
describe('a streamed answer the client abandons', () => {
  it('is left alone: no second answer, no error logged', async () => {
    const logged: { level: number; msg: string }[] = [];
    const app = Fastify({
      logger: {
        level: 'warn',
        stream: new Writable({
          write(line: Buffer, _encoding, done) {
            logged.push(JSON.parse(line.toString()) as { level: number; msg: string });
            done();
          },
        }),
      },
    });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandling(app);
    // Everyone counts as signed in here: the test is about the answer, not who asks.
    app.decorate('signInCheck', async () => {});
    let audio: Readable | undefined;
    route(app, endpoints.versions.streamVersion, {}, (_request, reply) => {
      let sent = 0;
      // Slower than the client reads: the response is still open when it goes away.
      audio = new Readable({
        read() {
          setTimeout(() => this.push(sent++ < 200 ? Buffer.alloc(16 * 1024, 1) : null), 5);
        },
      });
      return reply.header('content-type', 'audio/mpeg').send(audio);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const request = http.get(`http://127.0.0.1:${port}/api/versions/v1/stream`, (response) => {
          expect(response.statusCode).toBe(200);
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => (error.message === 'socket hang up' ? null : reject(error)));
      });
      // The server notices the closed socket, destroys the source, then the handler settles.
      await expect.poll(() => audio?.destroyed, { timeout: 5_000 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(logged.map((line) => line.msg)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
