import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ObjectStore } from '../../storage/object-store';
import type { ExportPlan } from './export-manifest';

/**
 * Writes a planned export to `file`: manifest.json first, then each stored original streamed
 * from the object store one after another (yazl asks for the next stream only when it needs it,
 * so one object is open at a time and nothing is held in memory). Audio is stored, not deflated:
 * it does not shrink. `onBytes` hears of every chunk copied.
 */
export async function writeExportZip(
  storage: ObjectStore,
  plan: ExportPlan,
  file: string,
  onBytes: (copied: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // A source failing makes yazl emit 'error': end the output with it, so the pipeline rejects.
  zip.on('error', (error: Error) => output.destroy(error));
  zip.addBuffer(Buffer.from(`${JSON.stringify(plan.manifest, null, 2)}\n`), 'manifest.json', {
    mtime: new Date(),
  });
  let copied = 0;
  for (const planned of plan.files) {
    zip.addReadStreamLazy(
      planned.path,
      { compress: false, size: planned.size, mtime: planned.mtime },
      (callback) => {
        storage.get(planned.key).then(
          (object) => {
            const counter = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                copied += chunk.length;
                onBytes(copied);
                done(null, chunk);
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
