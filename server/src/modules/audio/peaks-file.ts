import { createHash } from 'node:crypto';
import type { PeaksFile } from '@takes/contract';
import { NotFound } from '../../errors';
import { ObjectNotFoundError, type ObjectStore } from '../../storage/object-store';

/**
 * The detailed peaks file as processing stores it: its own names (camelCase), kept so that the
 * files already stored and the ones written now read the same way. The API answers in its own
 * names (peaksView).
 */
interface StoredPeaks {
  version: 1;
  peaksPerSecond: number;
  minMax: number[];
}

/** What processing stores as a row's peaks file (JSON text). */
export function storedPeaksText(peaks: { peaksPerSecond: number; minMax: number[] }): string {
  const stored: StoredPeaks = {
    version: 1,
    peaksPerSecond: peaks.peaksPerSecond,
    minMax: peaks.minMax,
  };
  return JSON.stringify(stored);
}

/** A stored peaks file (its JSON text) in the API's names. */
export function peaksView(text: string): PeaksFile {
  const stored = JSON.parse(text) as StoredPeaks;
  return { version: 1, peaks_per_second: stored.peaksPerSecond, min_max: stored.minMax };
}

/**
 * Reads a stored peaks file in the API's names, with a strong ETag of what is answered (the
 * stored bytes decide it, and the answer's shape: hence its prefix).
 */
export async function readPeaksFile(
  storage: ObjectStore,
  key: string,
): Promise<{ peaks: PeaksFile; etag: string }> {
  let chunks: Buffer[];
  try {
    const object = await storage.get(key);
    chunks = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw new NotFound('Not found');
    throw error;
  }
  const bytes = Buffer.concat(chunks);
  const hash = createHash('sha256').update(bytes).digest('base64url');
  return { peaks: peaksView(bytes.toString('utf8')), etag: `"peaks-1-${hash}"` };
}
