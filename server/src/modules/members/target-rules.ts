import type { Action, ActivityKind, Role } from '@takes/contract';
import type { AccessPolicy } from '../access';
import type { ActivityLog, Executor, UnplacedActivityEvent } from '../activity';
import type { Target } from './member-targets';

/**
 * What members and invitations ask about a target, whatever its kind: the caller's grant for an
 * action (the access policy's answer), their role, and where its events are recorded.
 */

/** 404 for a non-member, 403 for a role too low; else the owner and the caller's role. */
export function grantOn(
  access: AccessPolicy,
  userId: string,
  target: Target,
  action: Action,
  notFound?: string,
): Promise<{ ownerId: string; role: Role }> {
  switch (target.kind) {
    case 'project':
      return access.project(userId, target.id, action, notFound);
    case 'repository':
      return access.repository(userId, target.id, action, notFound);
    case 'collection':
      return access.collection(userId, target.id, action, notFound);
  }
}

/** The caller's role on the target, or null. */
export function roleOn(access: AccessPolicy, userId: string, target: Target): Promise<Role | null> {
  switch (target.kind) {
    case 'project':
      return access.projectRole(userId, target.id);
    case 'repository':
      return access.repoRole(userId, target.id);
    case 'collection':
      return access.collectionRole(userId, target.id);
  }
}

/**
 * Records a membership event on the project or repository. A collection has no activity feed
 * (its members are told nothing of each other's comings and goings).
 */
export async function recordOn<K extends ActivityKind>(
  activity: ActivityLog,
  trx: Executor,
  target: Target,
  event: UnplacedActivityEvent<K>,
): Promise<void> {
  if (target.kind === 'collection') return;
  await activity.record(trx, {
    ...event,
    ...(target.kind === 'project' ? { projectId: target.id } : { repoId: target.id }),
  });
}
