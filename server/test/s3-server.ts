import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StoreOptions } from '../src/storage/s3';

export interface LoopbackS3 {
  options: S3StoreOptions;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
  /** Takes the server down as a crash would: listening stops and open connections are cut. */
  stop(): Promise<void>;
  /** Brings a stopped server back on the same port with the same folder (its objects kept). */
  start(): Promise<void>;
}

/** A real S3-protocol server (s3rver) on loopback with one empty bucket. */
export async function startLoopbackS3(bucket = 'takes-test'): Promise<LoopbackS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-s3-'));
  const run = async (port: number) => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket }],
    });
    const address = await server.run();
    return { server, port: address.port };
  };
  let running: Awaited<ReturnType<typeof run>> | undefined = await run(0);
  const { port } = running;
  const stop = async () => {
    if (!running) return;
    const { server } = running;
    running = undefined;
    const closed = server.close();
    // s3rver keeps the Node server it listens with; cutting its connections ends any request.
    (server as unknown as { httpServer?: http.Server }).httpServer?.closeAllConnections();
    await closed;
  };
  return {
    options: {
      bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      // s3rver's fixed development credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    stop,
    start: async () => {
      running ??= await run(port);
    },
    close: async () => {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
