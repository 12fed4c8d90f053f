import type { Version } from '@takes/contract';
import type { VersionsTable } from '../../db/schema';
import { parseJson, type WaveformInfo } from '../audio';

/** A version row as the API shows it. */
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
    review_status: row.review_status,
    file_size: row.original_size,
  };
}
