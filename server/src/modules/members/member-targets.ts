import type { InvitationsTable } from '../../db/schema';

/** A project, a repository or a collection: what members and invitations belong to. */
export type TargetKind = 'project' | 'repository' | 'collection';
export interface Target {
  kind: TargetKind;
  id: string;
}

/** Each kind's member table, the column naming the target there and in invitations, and the target's own table. */
const PLACES = {
  project: { members: 'project_members', column: 'project_id', parent: 'projects' },
  repository: { members: 'repo_members', column: 'repo_id', parent: 'repos' },
  collection: { members: 'collection_members', column: 'collection_id', parent: 'collections' },
} as const;

/**
 * Where a target's members are. The three member tables have one shape (target column, user_id,
 * role, created_at) and the three targets have `id`, `name`, `owner_id` and `created_at`:
 * queries are typed against the project's tables and run on the target's own.
 */
export function placeOf(kind: TargetKind) {
  const place = PLACES[kind];
  return {
    members: place.members as 'project_members',
    column: place.column as 'project_id',
    parent: place.parent as 'projects',
  };
}

/** The column of `invitations` naming a target of this kind. */
export const targetColumn = (kind: TargetKind) => PLACES[kind].column;

/** What an invitation opens: the one of its three target columns that is set. */
export function invitationTarget(
  invitation: Pick<InvitationsTable, 'project_id' | 'repo_id' | 'collection_id'>,
): Target | undefined {
  if (invitation.project_id) return { kind: 'project', id: invitation.project_id };
  if (invitation.repo_id) return { kind: 'repository', id: invitation.repo_id };
  if (invitation.collection_id) return { kind: 'collection', id: invitation.collection_id };
  return undefined;
}
