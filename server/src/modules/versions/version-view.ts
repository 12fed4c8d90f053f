import type { Version } from '@takes/contract';
import type { VersionsTable } from '../../db/schema';
import { fewerPeaks, loudnessView, parseJson, type WaveformInfo } from '../audio';

export { fewerPeaks, LIST_PEAKS } from '../audio';

/** A version row as a list reads it: everything but the full waveform, with its preview. */
export type ListedVersionRow = Omit<VersionsTable, 'waveform'> & {
  preview_peaks: string | null;
  preview_duration: number | null;
};

/**
 * A version row as the API shows it. Lists pass `peaks` to send fewer waveform points (a
 * branch of many versions would otherwise carry every full overview).
 */
export function toVersion(row: VersionsTable, options: { peaks?: number } = {}): Version {
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  return versionBody(
    row,
    waveform
      ? {
          peaks:
            options.peaks === undefined
              ? waveform.overview
              : fewerPeaks(waveform.overview, options.peaks),
          duration: waveform.duration,
        }
      : null,
  );
}

/** A version in a list: its waveform is the stored preview (LIST_PEAKS peaks). */
export function toListedVersion(row: ListedVersionRow): Version {
  const peaks = parseJson<number[] | null>(row.preview_peaks, null);
  return versionBody(row, peaks ? { peaks, duration: row.preview_duration } : null);
}

function versionBody(
  row: Omit<VersionsTable, 'waveform'>,
  waveformData: Version['waveform_data'],
): Version {
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
    waveform_data: waveformData,
    metadata: parseJson<Record<string, unknown> | null>(row.metadata, null),
    loudness: loudnessView(row.loudness),
    review_status: row.review_status,
    file_size: row.original_size,
  };
}
