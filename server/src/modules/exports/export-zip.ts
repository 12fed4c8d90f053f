import type { ObjectStore } from '../../storage/object-store';
import { writeZip } from '../../storage/zip-writer';
import type { ExportPlan } from './export-manifest';

/**
 * Writes a planned export to `file`: manifest.json first, then each stored original streamed
 * from the object store one after another, stored as it is (see writeZip). `onBytes` hears of
 * every chunk copied.
 */
export function writeExportZip(
  storage: ObjectStore,
  plan: ExportPlan,
  file: string,
  onBytes: (copied: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const manifest = Buffer.from(`${JSON.stringify(plan.manifest, null, 2)}\n`);
  return writeZip(
    storage,
    [{ path: 'manifest.json', bytes: manifest, mtime: new Date() }, ...plan.files],
    file,
    { onBytes },
    signal,
  );
}
