import fs from 'node:fs';
import type http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import S3rver, { type S3rverContext } from 's3rver';
import type { S3StoreOptions } from '../src/storage/s3';

export interface LoopbackS3 {
  options: S3StoreOptions;
  /** The server's folder (s3rver keeps each bucket in a folder of its own there). */
  directory: string;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
  /** Takes the server down as a crash would: listening stops and open connections are cut. */
  stop(): Promise<void>;
  /** Brings a stopped server back on the same port with the same folder (its objects kept). */
  start(): Promise<void>;
}

const S3Error = createRequire(import.meta.url)('s3rver/lib/models/error') as new (
  code: string,
  message: string,
  detail?: Record<string, string>,
) => Error;

/**
 * Two S3 operations s3rver 3.7 lacks, which @tus/s3-store (the resumable uploads' bucket store)
 * needs, answered from s3rver's own record of a multipart upload (its folder `uploads/<UploadId>`
 * with `key`, and each part as `<PartNumber>` with `<PartNumber>.md5`), as S3 documents them:
 * ListParts (GET /bucket/key?uploadId=…, paged by part-number-marker and max-parts) and
 * AbortMultipartUpload (DELETE /bucket/key?uploadId=…); NoSuchUpload (404) for an upload that
 * was completed, aborted or never started.
 */
export function multipartListing() {
  return async (ctx: S3rverContext, next: () => Promise<void>): Promise<void> => {
    const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    const listsOrAborts =
      (ctx.method === 'GET' || ctx.method === 'DELETE') && !('partNumber' in ctx.query);
    if (!match || typeof uploadId !== 'string' || !listsOrAborts) return next();
    const [, bucket = '', encodedKey = ''] = match;
    const key = decodeURIComponent(encodedKey);
    const folder = path.join(ctx.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    const recorded = fs.existsSync(path.join(folder, 'key'))
      ? fs.readFileSync(path.join(folder, 'key'), 'utf8')
      : undefined;
    if (recorded !== key) {
      throw new S3Error(
        'NoSuchUpload',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
        { UploadId: uploadId },
      );
    }
    if (ctx.method === 'DELETE') {
      fs.rmSync(folder, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const marker = Number(ctx.query['part-number-marker'] ?? 0);
    const maxParts = Math.min(Number(ctx.query['max-parts'] ?? 1000), 1000);
    const numbers = fs
      .readdirSync(folder)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((number) => number > marker)
      .sort((a, b) => a - b);
    const page = numbers.slice(0, maxParts);
    const parts = page.map((number) => {
      const file = path.join(folder, String(number));
      const stat = fs.statSync(file);
      return {
        PartNumber: number,
        LastModified: stat.mtime.toISOString(),
        ETag: JSON.stringify(fs.readFileSync(`${file}.md5`, 'utf8')),
        Size: stat.size,
      };
    });
    ctx.body = {
      ListPartsResult: {
        '@': { xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' },
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        PartNumberMarker: marker,
        NextPartNumberMarker: page.at(-1) ?? marker,
        MaxParts: maxParts,
        IsTruncated: numbers.length > page.length,
        Part: parts,
      },
    };
  };
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
    // Before s3rver's router (its last middleware), after its XML encoding and error answers.
    server.middleware.splice(server.middleware.length - 1, 0, multipartListing());
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
    directory,
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
