import type { Role } from '@takes/contract';
import type { AccessPolicy } from '../access';

/** Where an upload link (and every file sent through it) belongs. */
export type GuestPlace =
  | { kind: 'project'; projectId: string; branchId: string }
  | { kind: 'repo'; repoId: string; branchId: string };

/** What the team does with a link or a file: hear it, or decide (make, revoke, accept, decline). */
export type GuestAction = 'listen' | 'decide';

/** The place of a link's or a file's row: exactly one pair is set (migration 0039's check). */
export function placeOf(row: {
  project_id: string | null;
  branch_id: string | null;
  repo_id: string | null;
  repo_branch_id: string | null;
}): GuestPlace {
  if (row.project_id && row.branch_id)
    return { kind: 'project', projectId: row.project_id, branchId: row.branch_id };
  if (row.repo_id && row.repo_branch_id)
    return { kind: 'repo', repoId: row.repo_id, branchId: row.repo_branch_id };
  throw new Error('guest uploads: a row with no place');
}

/** The policy's action for deciding: a project's `upload`, a repository's `publish` (Editor). */
function actionAt(place: GuestPlace, action: GuestAction) {
  if (action === 'listen') return 'listen';
  return place.kind === 'project' ? 'upload' : 'publish';
}

/** The caller's role at the place, if it allows the action (else the policy's 404 or 403). */
export async function requireAt(
  access: AccessPolicy,
  userId: string,
  place: GuestPlace,
  action: GuestAction,
  notFound: string,
): Promise<Role> {
  const wanted = actionAt(place, action);
  const grant =
    place.kind === 'project'
      ? await access.project(userId, place.projectId, wanted, notFound)
      : await access.repository(userId, place.repoId, wanted, notFound);
  return grant.role;
}

/** The place's columns of a link's or a file's row. */
export function placeColumns(place: GuestPlace) {
  return place.kind === 'project'
    ? {
        project_id: place.projectId,
        branch_id: place.branchId,
        repo_id: null,
        repo_branch_id: null,
      }
    : { project_id: null, branch_id: null, repo_id: place.repoId, repo_branch_id: place.branchId };
}
