import type { Version } from '@takes/contract';
import type { VersionsTable } from '../../db/schema';
import { parseJson, type WaveformInfo } from '../audio';

/** Peaks a version in a list carries: what a row, card or review waveform draws (200 bars). */
export const LIST_PEAKS = 200;

/** The loudest of each bucket: `points` peaks from the stored overview (1,000). */
export function fewerPeaks(peaks: number[], points: number): number[] {
  if (peaks.length <= points) return peaks;
  return Array.from({ length: points }, (_, i) => {
    const from = Math.floor((i * peaks.length) / points);
    const to = Math.floor(((i + 1) * peaks.length) / points);
    let max = 0;
    for (let k = from; k < to; k++) max = Math.max(max, peaks[k] ?? 0);
    return max;
  });
}

/**
 * A version row as the API shows it. Lists pass `peaks` to send fewer waveform points (a
 * branch of many versions would otherwise carry every full overview).
 */
export function toVersion(row: VersionsTable, options: { peaks?: number } = {}): Version {
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
    waveform_data: waveform
      ? {
          peaks:
            options.peaks === undefined
              ? waveform.overview
              : fewerPeaks(waveform.overview, options.peaks),
          duration: waveform.duration,
        }
      : null,
    metadata: parseJson<Record<string, unknown> | null>(row.metadata, null),
    loudness: parseJson(row.loudness, null),
    review_status: row.review_status,
    file_size: row.original_size,
  };
}
