import type {
  Bounce,
  RecentBounce,
  ReviewStatus,
  RepoBranch,
  Repository,
  Role,
  TimelineCommit,
} from '@takes/contract';
import type { RepoBranchesTable, RepoCommitsTable } from '../../db/schema';
import { RawJson } from '../../http/raw-json';
import { versionedCoverUrl } from '../../media/cover-image';
import { audioView, feedPairs, loudnessView, parseJson, waveformJson } from '../audio';
import type { BounceRow, RepoSummaryRow } from './repos.repo';

/** How rows of the repositories module look in the API (and the URLs they carry). */

export function coverUrl(repoId: string, key: string): string {
  return versionedCoverUrl(`/api/repos/${repoId}/cover`, key);
}

/** A repository; `pull_url` opens it in the desktop app (on its default branch). */
export function toRepository(row: RepoSummaryRow, desktopScheme: string, role: Role): Repository {
  const branch = row.default_branch ?? 'main';
  return {
    id: row.id,
    name: row.name,
    cover_url: row.cover_key ? coverUrl(row.id, row.cover_key) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_activity_at: row.activity_at,
    patch_count: Number(row.commit_count ?? 0) + Number(row.legacy_count ?? 0),
    bounce_count: Number(row.bounce_count ?? 0),
    default_branch: row.default_branch,
    role,
    pull_url: `${desktopScheme}://pull?repo=${encodeURIComponent(row.id)}&branch=${encodeURIComponent(branch)}`,
  };
}

export function toRepoBranch(
  b: RepoBranchesTable & { commit_count: number | null; bounce_count: number | null },
): RepoBranch {
  return {
    name: b.name,
    is_default: b.is_default === 1,
    head_sha: b.head_sha,
    commit_count: Number(b.commit_count ?? 0),
    bounce_count: Number(b.bounce_count ?? 0),
    created_at: b.created_at,
    updated_at: b.updated_at,
  };
}

export function toCommit(c: RepoCommitsTable, branch: string, hasBounce: boolean): TimelineCommit {
  return {
    sha: c.sha,
    message: c.message,
    parent_sha: c.parent_sha,
    branch,
    created_at: c.created_at,
    has_bounce: hasBounce,
  };
}

export function toBounce(
  row: Omit<BounceRow, 'repo_name' | 'cover_key'>,
  repoName: string,
): Bounce {
  const { waveform, duration } = audioView(row);
  return {
    id: row.id,
    repo_id: row.repo_id,
    repo_name: repoName,
    branch: row.branch_name,
    commit_sha: row.commit_sha,
    title: row.title,
    filename: row.filename,
    mime: row.mime,
    size: Number(row.original_size),
    duration,
    created_at: row.created_at,
    status: row.status,
    error: row.error,
    waveform_json: waveformJson(waveform, duration),
    loudness: loudnessView(row.loudness),
    stream_url: `/api/repos/${row.repo_id}/bounces/${row.id}/stream`,
  };
}

function feedWaveform(waveform: Bounce['waveform_json']): Bounce['waveform_json'] {
  return waveform ? feedPairs(waveform) : null;
}

/** A bounce in the recent feed. */
export function toRecentBounce(row: BounceRow): RecentBounce {
  const b = toBounce(row, row.repo_name);
  return {
    kind: 'bounce',
    id: b.id,
    title: b.title,
    created_at: b.created_at,
    duration: b.duration,
    stream_url: b.stream_url,
    waveform_json: feedWaveform(b.waveform_json),
    repo_id: b.repo_id,
    repo_name: b.repo_name,
    branch: b.branch,
    commit_sha: b.commit_sha,
    cover_url: row.cover_key ? coverUrl(row.repo_id, row.cover_key) : null,
    project_id: null,
    project_name: null,
    version_number: null,
    review_status: null,
  };
}

/** An item of the recent feed, whose waveform preview may be stored JSON text kept as text. */
export type RecentFeedItem = Omit<RecentBounce, 'waveform_json'> & {
  waveform_json: RecentBounce['waveform_json'] | RawJson;
};

/**
 * The stored preview `{"min":[…],"max":[…]}` with its duration, as JSON text: written into the
 * answer as it is (stringifyWithRaw), never parsed. Anything else is parsed as before.
 */
function previewWithDuration(
  pairs: string | null,
  duration: number,
): RecentFeedItem['waveform_json'] {
  if (pairs === null) return null;
  if (pairs.startsWith('{"min":[') && pairs.endsWith(']}') && Number.isFinite(duration))
    return new RawJson(`${pairs.slice(0, -1)},"duration":${duration}}`);
  const parsed = parseJson<{ min: number[]; max: number[] } | null>(pairs, null);
  return parsed ? { ...parsed, duration } : null;
}

/** A legacy project version in the recent feed. */
export function toRecentVersion(v: {
  id: string;
  created_at: string;
  metadata: string | null;
  /** The stored feed preview (FEED_WAVEFORM_POINTS min/max pairs) and its decoded length. */
  preview_pairs: string | null;
  preview_duration: number | null;
  version_number: number;
  original_key: string | null;
  file_url: string | null;
  project_id: string;
  project_name: string;
  review_status: ReviewStatus;
}): RecentFeedItem {
  // As audioView and waveformJson would read the full waveform: the probed length wins.
  const metadata = parseJson<{ duration?: number | null } | null>(v.metadata, null);
  const duration = metadata?.duration ?? v.preview_duration ?? null;
  return {
    kind: 'version',
    id: v.id,
    title: v.project_name,
    created_at: v.created_at,
    duration,
    stream_url: v.original_key ? `/api/versions/${v.id}/stream` : (v.file_url ?? ''),
    waveform_json: previewWithDuration(v.preview_pairs, v.preview_duration ?? duration ?? 0),
    repo_id: null,
    repo_name: null,
    branch: null,
    commit_sha: null,
    cover_url: null,
    project_id: v.project_id,
    project_name: v.project_name,
    version_number: v.version_number,
    review_status: v.review_status,
  };
}
