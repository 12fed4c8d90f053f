import type { Version } from '@takes/contract';
import type { VersionsTable } from '../../db/schema';

/** `sha256` of the rendition's bytes (its ETag); absent on rows processed before it existed. */
export interface Renditions {
  high?: { key: string; size: number; sha256?: string };
  standard?: { key: string; size: number; sha256?: string };
}

export interface WaveformInfo {
  overview: number[];
  /** Up to 1000 min/max points (absent on rows processed before it existed). */
  overviewMinMax?: { min: number[]; max: number[] };
  duration: number | null;
  peaksKey: string;
  peaksPerSecond: number;
}

export function parseJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A version row as the API shows it (spec section 3 field names). */
export function toVersion(row: VersionsTable): Version {
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  const stored = row.original_key !== null;
  return {
    id: row.id,
    project_id: row.project_id,
    branch_id: row.branch_id,
    version_number: row.version_number,
    message: row.message,
    tags: parseJson<string[]>(row.tags, []),
    created_at: row.created_at,
    status: row.status,
    error: row.error,
    file_path: row.original_key,
    original_file_url: stored ? `/api/versions/${row.id}/download` : row.file_url,
    stream_file_url: stored ? `/api/versions/${row.id}/stream` : row.file_url,
    waveform_data: waveform ? { peaks: waveform.overview, duration: waveform.duration } : null,
    metadata: parseJson<Record<string, unknown> | null>(row.metadata, null),
    loudness: parseJson(row.loudness, null),
  };
}

/** Keys only this version owns (renditions, peaks); the original may be shared. */
export function ownedKeys(row: VersionsTable): string[] {
  const renditions = parseJson<Renditions>(row.renditions, {});
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  return [renditions.high?.key, renditions.standard?.key, waveform?.peaksKey].filter(
    (k): k is string => !!k,
  );
}
