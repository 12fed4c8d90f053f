import type { Bounce, BounceWaveform, RecentBounce } from '@takes/contract';
import type { PlayerTrack } from '../player/use-audio-player';

/** The global player draws 0..1 peaks; a bounce stores min/max pairs (-1..1). */
export function peaksFromWaveform(
  waveform: BounceWaveform | null | undefined,
): number[] | undefined {
  if (!waveform || waveform.max.length === 0) return undefined;
  return waveform.max.map((high, i) =>
    Math.min(1, Math.max(Math.abs(high), Math.abs(waveform.min[i] ?? 0))),
  );
}

export function bounceTitle(bounce: Pick<Bounce, 'title' | 'filename'>): string {
  return bounce.title || bounce.filename || 'Bounce';
}

export function repoPagePath(repoId: string): string {
  return `/repositories/${repoId}`;
}

/**
 * A repository bounce as the global player's track on the repository page: title
 * (fallback file name, then 'Bounce'), artist the repository name, its stream and page URLs.
 */
export function bounceTrack(
  bounce: Bounce,
  repoName: string,
  coverArt?: string | null,
): PlayerTrack {
  const duration = bounce.waveform_json?.duration ?? bounce.duration;
  return {
    id: bounce.id,
    title: bounceTitle(bounce),
    artist: repoName || bounce.repo_name,
    audioUrl: bounce.stream_url,
    sourceUrl: repoPagePath(bounce.repo_id),
    ...(coverArt ? { coverArt } : {}),
    ...(peaksFromWaveform(bounce.waveform_json)
      ? { peaks: peaksFromWaveform(bounce.waveform_json) }
      : {}),
    ...(duration ? { duration } : {}),
  };
}

/** An item of the recent feed: a repository bounce, or a legacy project version. */
export function recentTrack(item: RecentBounce, coverArt?: string | null): PlayerTrack {
  const duration = item.waveform_json?.duration ?? item.duration;
  const peaks = peaksFromWaveform(item.waveform_json);
  const common = {
    id: item.id,
    title: item.title || 'Bounce',
    audioUrl: item.stream_url,
    ...(coverArt ? { coverArt } : {}),
    ...(peaks ? { peaks } : {}),
    ...(duration ? { duration } : {}),
  };
  if (item.kind === 'version') {
    return {
      ...common,
      artist: item.project_name ?? undefined,
      album: item.project_name ?? undefined,
      versionId: item.id,
      projectId: item.project_id ?? undefined,
      versionNumber: item.version_number ?? undefined,
      sourceUrl: item.project_id ? `/projects/${item.project_id}` : undefined,
    };
  }
  return {
    ...common,
    artist: item.repo_name ?? undefined,
    sourceUrl: item.repo_id ? repoPagePath(item.repo_id) : undefined,
  };
}
