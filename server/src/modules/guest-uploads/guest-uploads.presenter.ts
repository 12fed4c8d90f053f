import { sentByLine, type GuestFile, type UploadLink } from '@takes/contract';
import { fewerPeaks, LIST_PEAKS, parseJson, storedDuration, type WaveformInfo } from '../audio';
import { placeOf } from './guest-place';
import type { GuestFileRow, UploadLinkRow } from './guest-uploads.repo';

/** An upload link as the team sees it (never its password). */
export function toUploadLink(row: UploadLinkRow, publicUrl: string): UploadLink {
  return {
    id: row.id,
    project_id: row.project_id,
    repo_id: row.repo_id,
    branch_id: placeOf(row).branchId,
    branch_name: row.branch_name,
    name: row.name,
    message: row.message,
    url: `${publicUrl.replace(/\/$/, '')}/upload/${row.key}`,
    has_password: row.password_hash !== null,
    max_files: row.max_files,
    max_bytes: Number(row.max_bytes),
    files_received: Number(row.files_received),
    bytes_received: Number(row.bytes_received),
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
  };
}

/** A guest's file as the team sees it; the address only to whoever may accept it. */
export function toGuestFile(row: GuestFileRow, showAddress: boolean): GuestFile {
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  return {
    id: row.id,
    project_id: row.project_id,
    repo_id: row.repo_id,
    branch_id: placeOf(row).branchId,
    guest_name: row.guest_name,
    guest_email: showAddress ? row.guest_email : null,
    link_name: row.link_name,
    sent_by: sentByLine(row),
    file_name: row.original_name,
    size: Number(row.original_size),
    status: row.status,
    error: row.error,
    duration: storedDuration(row.metadata, row.waveform),
    peaks: Array.isArray(waveform?.overview) ? fewerPeaks(waveform.overview, LIST_PEAKS) : null,
    stream_url: `/api/guest-files/${row.id}/stream`,
    created_at: row.created_at,
  };
}
