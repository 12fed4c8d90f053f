import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteCounter } from './byte-limit';
import { ObjectTooLargeError } from './object-store';

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
  try {
    await pipeline(stream, counter, tap, fs.createWriteStream(file));
    // A multipart file part (busboy) stops quietly at the parser's own limit and says so here.
    if ((stream as Readable & { truncated?: boolean }).truncated)
      throw new ObjectTooLargeError(options.maxBytes);
  } catch (error) {
    await fsp.rm(file, { force: true });
    throw error;
  }
  return { path: file, size: counter.bytes, sha256: hash.digest('hex'), head };
}

/** Whether an upload failed for its size: our own counter, or Fastify's multipart limit. */
export function isTooLarge(error: unknown): boolean {
  return (
    error instanceof ObjectTooLargeError ||
    (error as { code?: string } | undefined)?.code === 'FST_REQ_FILE_TOO_LARGE'
  );
}

/** SHA-256 (hex) of a file on disk, read as a stream. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}
