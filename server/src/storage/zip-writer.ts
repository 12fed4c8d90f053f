import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ObjectStore } from './object-store';

/** One entry of a zip: small bytes held in memory, or a stored object copied as it is. */
export type ZipEntry =
  | { path: string; bytes: Buffer; mtime: Date }
  | { path: string; key: string; size: number; mtime: Date };

export interface ZipProgress {
  /** Hears of every chunk copied from the store (bytes copied so far, all entries). */
  onBytes?: (copied: number) => void;
  /** Hears when a stored entry has been read to its end (how many have, so far). */
  onEntryCopied?: (copied: number) => void;
}

/**
 * Writes `entries` to `file` in order, each stored object streamed from the object store one
 * after another (yazl asks for the next stream only when it needs it, so one object is open at a
 * time and nothing is held in memory). Stored objects are not deflated (audio does not shrink);
 * bytes given in memory are. A source failing half-way rejects the whole write.
 */
export async function writeZip(
  storage: ObjectStore,
  entries: readonly ZipEntry[],
  file: string,
  progress: ZipProgress,
  signal: AbortSignal,
): Promise<void> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // A source failing makes yazl emit 'error': end the output with it, so the pipeline rejects.
  zip.on('error', (error: Error) => output.destroy(error));
  let copied = 0;
  let entriesCopied = 0;
  for (const entry of entries) {
    if ('bytes' in entry) {
      zip.addBuffer(entry.bytes, entry.path, { mtime: entry.mtime });
      continue;
    }
    zip.addReadStreamLazy(
      entry.path,
      { compress: false, size: entry.size, mtime: entry.mtime },
      (callback) => {
        storage.get(entry.key).then(
          (object) => {
            const counter = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                copied += chunk.length;
                progress.onBytes?.(copied);
                done(null, chunk);
              },
              flush(done) {
                entriesCopied += 1;
                progress.onEntryCopied?.(entriesCopied);
                done();
              },
            });
            // yazl does not listen for errors of a lazily opened stream: a source failing
            // half-way ends the whole output here, so the pipeline below rejects.
            pipeline(object.body, counter).catch((error: unknown) =>
              output.destroy(error as Error),
            );
            callback(null, counter);
          },
          (error: unknown) => callback(error, Readable.from([])),
        );
      },
    );
  }
  zip.end();
  await pipeline(output, fs.createWriteStream(file, { flags: 'w' }), { signal });
}
