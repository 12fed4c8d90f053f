import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One tus PATCH as the proxy passed it on: where it started and how many bytes went through. */
export interface ForwardedPatch {
  /** The upload's id: the last segment of its URL. */
  uploadId: string;
  /** The request's Upload-Offset. */
  offset: number;
  /** Body bytes written to the server so far. */
  forwarded: number;
  /** 'sending' while the body flows, 'sent' once all of it went through, 'cut' if the browser dropped it. */
  state: 'sending' | 'sent' | 'cut';
  /** The server's answer, once there is one. */
  status?: number;
}

export interface ThrottleProxy {
  /** Where the page is opened: every request goes through the proxy to the server. */
  origin: string;
  patches: ForwardedPatch[];
  /** Body bytes of tus PATCH requests passed to the server, all requests together. */
  forwardedPatchBytes(): number;
  /**
   * The link itself goes down (true) or comes back (false). Chromium's offline mode
   * (`context.setOffline`) fails new requests but lets a request already sending go on over its
   * open socket; a real drop cuts that socket too, which this does (and refuses new connections).
   */
  setOffline(offline: boolean): void;
  close(): Promise<void>;
}

/** Body slices small enough that the rate holds smoothly. */
const SLICE_BYTES = 64 * 1024;

/**
 * A slow uplink between the browser and the server: an HTTP proxy that passes request bodies on
 * at `bytesPerSecond` (responses at full speed). Chromium's own upload throttling (CDP
 * `uploadThroughput`) only slows what the page is told, not the bytes: the socket took the whole
 * file at once. Here the server really receives the bytes at that rate, so a break in the middle
 * cuts a request the server is still reading. Origin, Referer and Host are rewritten to the
 * server's own, so the page behaves as if it were served from there (CSRF checks the origin).
 */
export async function startThrottleProxy(
  target: string,
  bytesPerSecond: number,
): Promise<ThrottleProxy> {
  const upstream = new URL(target);
  const patches: ForwardedPatch[] = [];
  let proxyOrigin = '';
  let offline = false;
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    if (typeof headers.origin === 'string') headers.origin = upstream.origin;
    if (typeof headers.referer === 'string')
      headers.referer = headers.referer.replace(proxyOrigin, upstream.origin);
    const isPatch = req.method === 'PATCH';
    const patch: ForwardedPatch | undefined = isPatch
      ? {
          uploadId: (req.url ?? '').split('?')[0]?.split('/').pop() ?? '',
          offset: Number(req.headers['upload-offset']),
          forwarded: 0,
          state: 'sending',
        }
      : undefined;
    if (patch) patches.push(patch);

    const forward = http.request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent: false,
      },
      (answer) => {
        if (patch) patch.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // The browser went away (offline, or the page closed): the server sees the request cut too.
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy();
    });

    void (async () => {
      const started = Date.now();
      let sent = 0;
      try {
        for await (const chunk of req as AsyncIterable<Buffer>) {
          for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
            const slice = chunk.subarray(at, at + SLICE_BYTES);
            const due = started + (sent / bytesPerSecond) * 1000;
            const wait = due - Date.now();
            if (wait > 0) await sleep(wait);
            if (forward.destroyed) throw new Error('cut');
            if (!forward.write(slice)) {
              await new Promise<void>((resolve) => {
                const done = () => {
                  forward.off('drain', done);
                  forward.off('close', done);
                  resolve();
                };
                forward.on('drain', done);
                forward.on('close', done);
              });
            }
            sent += slice.length;
            if (patch) patch.forwarded = sent;
          }
        }
        if (!req.complete) throw new Error('cut');
        forward.end();
        if (patch) patch.state = 'sent';
      } catch {
        if (patch) patch.state = 'cut';
        forward.destroy();
      }
    })();
  });

  server.on('connection', (socket: Socket) => {
    if (offline) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxyOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin: proxyOrigin,
    patches,
    forwardedPatchBytes: () => patches.reduce((sum, p) => sum + p.forwarded, 0),
    setOffline: (value) => {
      offline = value;
      if (value) for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
