import type { ActivityKind } from '@takes/contract';
import type { ActivityTable } from '../db/schema';
import { PERSONAL_KINDS } from '../modules/activity/activity.repo';
import type { ActivityLiveEvent } from './bus';

/**
 * The live event of a recorded activity row: the query hints a browser tab needs. The version
 * is `data.version_id` (or `versionId`) when the recorder gave it (comments, processing, uploads), else the
 * target of a `version.*` event.
 */
export function liveEventOf(row: ActivityTable): ActivityLiveEvent {
  const data = parseData(row.data);
  // The activity log writes `version_id` for every event about a version (comments included).
  const given = data.version_id ?? data.versionId;
  const fromData = typeof given === 'string' ? given : null;
  const versionId = fromData ?? (row.kind.startsWith('version.') ? row.target_id : null);
  const event: ActivityLiveEvent = {
    type: 'activity',
    activityId: row.id,
    kind: row.kind as ActivityKind,
    projectId: row.project_id,
    repoId: row.repo_id,
    versionId,
  };
  const userIds = data.userIds;
  if (Array.isArray(userIds) && userIds.every((id) => typeof id === 'string'))
    event.userIds = userIds;
  // A person's own event on a project or a repository (a collection link's first play): told to
  // them alone, never to the project's or the repository's members.
  if ((PERSONAL_KINDS as readonly string[]).includes(row.kind)) {
    event.projectId = null;
    event.repoId = null;
    event.versionId = null;
    event.userIds = typeof data.owner_id === 'string' ? [data.owner_id] : [];
  }
  return event;
}

function parseData(data: string): Record<string, unknown> {
  if (!data) return {};
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
