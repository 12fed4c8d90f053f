import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteCounter } from './byte-limit';
import { ObjectTooLargeError, type ObjectStore, type PutOptions } from './object-store';

/** How many leading bytes are kept for sniffing the file's type by its content. */
export const SNIFF_BYTES = 64;

export interface ScratchFile {
  path: string;
  size: number;
  sha256: string;
  /** The first SNIFF_BYTES bytes (fewer for a shorter file). */
  head: Buffer;
}

/**
 * Streams an upload into a new file under `dir`, never holding it in memory whole: counts it
 * (ObjectTooLargeError past `maxBytes`, as the bytes arrive), hashes it and keeps its first bytes.
 * On any failure the partial file is removed.
 */
export async function streamToScratch(
  stream: Readable,
  options: { dir: string; prefix: string; maxBytes: number },
): Promise<ScratchFile> {
  const file = path.join(options.dir, `${options.prefix}-${randomUUID()}`);
  const counter = new ByteCounter(options.maxBytes);
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      if (head.length < SNIFF_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  const out = fs.createWriteStream(file);
  try {
    await pipeline(guardUpload(stream), counter, tap, out);
    // A multipart file part (busboy) stops quietly at the parser's own limit and says so here.
    if ((stream as Readable & { truncated?: boolean }).truncated)
      throw new ObjectTooLargeError(options.maxBytes);
  } catch (error) {
    // A refusal in the first chunk can come while the file is still being opened: wait until
    // it is closed, or it would be created after it was removed (and left behind).
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await fsp.rm(file, { force: true });
    throw error;
  }
  return { path: file, size: counter.bytes, sha256: hash.digest('hex'), head };
}

/**
 * The upload stopped before the whole file arrived: a multipart body that ends in the middle of
 * its file part, or a client that went away (or stalled and was cut off) mid-body. The client's
 * fault, so the error handler answers 400 with this message.
 */
export class UploadIncompleteError extends Error {
  override name = 'UploadIncompleteError';
  readonly statusCode = 400;
  constructor(options?: ErrorOptions) {
    super('The upload ended before the whole file arrived. Please try again.', options);
  }
}

/**
 * The bytes of an upload as a stream that either ends (the producer ended) or fails with
 * UploadIncompleteError (the producer stopped early), never neither. Needed because when a
 * multipart body ends mid-part, @fastify/multipart destroys the part's stream without an error
 * and busboy then pushes its end into the destroyed stream: Node's pipeline() would wait for an
 * 'end' that never comes, and the request would hang forever. Destroying the returned stream
 * (its consumer gave up) stops the producer too.
 */
export function guardUpload(source: Readable): Readable {
  const out = new PassThrough();
  // The failure may come before its consumer attaches (a route that checks the database
  // first): it is kept on the stream (readableErrored) for the consumer, never thrown.
  out.on('error', () => {});
  let ended = source.readableEnded;
  const fail = (cause?: unknown) => {
    if (!out.destroyed) out.destroy(new UploadIncompleteError(cause ? { cause } : undefined));
  };
  if (source.destroyed && !ended) {
    process.nextTick(fail);
    return out;
  }
  source.on('data', (chunk: Buffer) => {
    if (!out.write(chunk)) source.pause();
  });
  out.on('drain', () => source.resume());
  source.once('end', () => {
    ended = true;
    out.end();
  });
  source.on('error', fail);
  source.once('close', () => {
    if (!ended) fail();
  });
  out.once('close', () => {
    if (!ended && !source.destroyed) source.destroy();
  });
  return out;
}

/** Whether an upload failed for its size: our own counter, or Fastify's multipart limit. */
export function isTooLarge(error: unknown): boolean {
  return (
    error instanceof ObjectTooLargeError ||
    (error as { code?: string } | undefined)?.code === 'FST_REQ_FILE_TOO_LARGE'
  );
}

/** Bytes read at a time when hashing a file on disk, through one buffer used again. */
const HASH_READ_BYTES = 1 << 20;

/**
 * Stores a file from disk under `key` and answers its size and SHA-256 (hex). The hash is read
 * through one buffer used again for every read, and the store copies the file itself (a local
 * store in the kernel): no new memory per chunk, so no garbage for the collector to chase while
 * the media work still runs.
 */
export async function putFileHashed(
  store: ObjectStore,
  key: string,
  file: string,
  options: PutOptions,
): Promise<{ size: number; sha256: string }> {
  const sha256 = await hashFile(file);
  const { size } = await store.putFile(key, file, options);
  return { size, sha256 };
}

/** The SHA-256 (hex) of a file on disk. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await fsp.open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafeSlow(HASH_READ_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, HASH_READ_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}
