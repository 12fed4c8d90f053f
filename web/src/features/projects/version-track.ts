import { may, routes, type Role, type Version } from '@takes/contract';
import { api } from '../../lib/api';
import type { PlayerTrack } from '../player/use-audio-player';

/**
 * A version as the global player's track. With the caller's role, the player offers its share
 * button only to those who may create share links.
 */
export function versionTrack(version: Version, projectName: string, role?: Role): PlayerTrack {
  return {
    id: version.id,
    title: version.message || `Version ${version.version_number}`,
    artist: projectName,
    audioUrl: api.url(routes.versions.streamVersion, { params: { versionId: version.id } }),
    versionId: version.id,
    projectId: version.project_id,
    versionNumber: version.version_number,
    ...(role ? { shareable: may(role, 'share') } : {}),
    ...(version.waveform_data
      ? { peaks: version.waveform_data.peaks, duration: version.waveform_data.duration }
      : {}),
  };
}

export function downloadUrl(versionId: string): string {
  return api.url(routes.versions.downloadVersion, { params: { versionId } });
}
