import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import type { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/server';
import { SNIFF_BYTES, streamToScratch, type ScratchFile } from '../../storage/scratch-file';

/**
 * The finished upload as a scratch file (path, size, hash, first bytes): the file store's own
 * file where the bytes are on this disk, else a copy streamed from the bucket.
 */
export async function finishedUploadFile(
  store: DataStore,
  uploadId: string,
  scratch: { tmpDir: string; maxBytes: number },
): Promise<{ file: ScratchFile; copied: boolean }> {
  if (store instanceof FileStore) {
    const file = path.join(store.directory, uploadId);
    return { file: await describeFile(file), copied: false };
  }
  const body = await (store as S3Store).read(uploadId);
  const file = await streamToScratch(body, {
    dir: scratch.tmpDir,
    prefix: 'resumable',
    maxBytes: scratch.maxBytes,
  });
  return { file, copied: true };
}

/** Size, SHA-256 and first bytes of a file already on disk, read once. */
async function describeFile(file: string): Promise<ScratchFile> {
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    if (head.length < SNIFF_BYTES)
      head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
  }
  return { path: file, size, sha256: hash.digest('hex'), head };
}
