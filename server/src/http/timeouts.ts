import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '@takes/contract';
import type { Config } from '../config';

/**
 * Fastify's server options for how long the server waits for a client:
 * - headersTimeout: the request line and headers must arrive within it (Node answers 408);
 * - connectionTimeout: the socket's idle timeout, which onIdleSocket below turns into the
 *   request-body inactivity timeout;
 * - keepAliveTimeout: how long an idle keep-alive connection stays open between requests;
 * - requestTimeout: an optional cap on a whole request's arrival (0: none), because a
 *   slow-but-moving 500 MB upload must still succeed; the idle timeout catches a stalled one.
 */
export function serverTimeoutOptions(http: Config['http']) {
  return {
    connectionTimeout: http.idleTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    http: {
      headersTimeout: http.headersTimeoutMs,
      // Node checks headers/request deadlines on this interval (30 s by default).
      connectionsCheckingInterval: Math.min(30_000, Math.max(1000, http.headersTimeoutMs / 2)),
    },
  };
}

const STALLED_BODY = errorBody(
  'request_timeout',
  'The request stopped arriving before it was complete. Please try again.',
);
const STALLED_RESPONSE = (() => {
  const body = JSON.stringify(STALLED_BODY);
  return (
    'HTTP/1.1 408 Request Timeout\r\n' +
    'Connection: close\r\n' +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
})();

/**
 * Decides what an idle connection (no bytes either way for HTTP_IDLE_TIMEOUT_SECONDS) means,
 * per request:
 * - the body is still arriving and nothing of it waits unread: the client stalled. Answer 408
 *   and close the connection, as Node does for its own request timeouts; the route reading
 *   the body then sees it end early and cleans up.
 * - the body is still arriving but its bytes wait for us (the server is slow to read them):
 *   not the client's fault, keep going.
 * - the whole request has arrived and no answer has started: the server is still working
 *   (probing, storing a 500 MB file): keep going.
 * - the answer has started and stopped moving: the client stopped reading it; close.
 */
export function registerIdleTimeout(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.on('timeout', (socket: Socket) => onIdleSocket(request.raw, reply.raw, socket));
    done();
  });
}

function onIdleSocket(req: IncomingMessage, res: ServerResponse, socket: Socket): void {
  if (socket.destroyed) return;
  if (!req.complete) {
    if (req.readableLength > 0) return;
    if (!res.headersSent) socket.write(STALLED_RESPONSE);
    socket.destroy();
    return;
  }
  if (res.headersSent) socket.destroy();
}
