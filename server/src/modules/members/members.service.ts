import {
  MEMBER_MESSAGES,
  may,
  type Member,
  type MemberRole,
  type MembersResponse,
  type Project,
  type Repository,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { Conflict, Forbidden, NotFound } from '../../errors';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import { listenerName } from '../people';
import { avatarUrl } from '../profiles';
import type { ProjectsService } from '../projects';
import type { ReposService } from '../repos';
import type { InvitationsRepo } from './invitations.repo';
import { toInvitation } from './invitations.service';
import type { Target } from './member-targets';
import type { MembersRepo, PersonRow } from './members.repo';
import { grantOn, recordOn } from './target-rules';

export interface MembersDeps {
  access: AccessPolicy;
  repo: MembersRepo;
  /** The pending invitations a member list shows whoever may manage the members. */
  invitations: Pick<InvitationsRepo, 'pendingInvitations'>;
  clock: Clock;
  /** Records membership events (left, removed, role changed). */
  activity: ActivityLog;
  /** What a project looks like to the caller once handed over: the projects module answers. */
  projects: Pick<ProjectsService, 'get'>;
  /** What a repository looks like to the caller once handed over: the repos module answers. */
  repos: Pick<ReposService, 'get'>;
}

/**
 * Members of projects, repositories and collections: the member list, roles, removal, leaving
 * and handing ownership to an editor (invitations: `InvitationsService`). Every call asks the
 * access policy first: a non-member gets 404, a member below the owner 403 for what only the
 * owner may do.
 */
export class MembersService {
  constructor(private readonly deps: MembersDeps) {}

  // ---- the member list ----

  /**
   * Members with the owner first; pending invitations, and how many live share links each
   * person made, only for whoever may manage the members.
   */
  async list(userId: string, target: Target): Promise<MembersResponse> {
    const grant = await grantOn(this.deps.access, userId, target, 'view');
    const people = await this.deps.repo.people(target, grant.ownerId);
    if (!may(grant.role, 'manageMembers'))
      return { role: grant.role, members: people.map((p) => toMember(p)), invitations: [] };
    const now = this.now();
    const [pending, linksMade] = await Promise.all([
      this.deps.invitations.pendingInvitations(target, now),
      this.deps.repo.liveLinksMade(target, now),
    ]);
    return {
      role: grant.role,
      members: people.map((p) => toMember(p, linksMade.get(p.user_id) ?? 0)),
      invitations: pending.map(toInvitation),
    };
  }

  // ---- roles, removal, leaving ----

  /** Changes a member's role (owner only); it applies from their next request. */
  async changeRole(
    userId: string,
    target: Target,
    memberId: string,
    role: MemberRole,
  ): Promise<Member> {
    const grant = await grantOn(this.deps.access, userId, target, 'manageMembers');
    if (memberId === grant.ownerId) throw new Conflict(MEMBER_MESSAGES.ownerRoleFixed);
    await this.deps.repo.transaction(async (trx) => {
      const before = await this.deps.repo.roleOf(target, memberId, trx);
      if (!(await this.deps.repo.setRole(target, memberId, role, trx)))
        throw new NotFound(MEMBER_MESSAGES.memberNotFound);
      if (before !== role)
        await recordOn(this.deps.activity, trx, target, {
          kind: 'member.role_changed',
          actor: { userId },
          targetId: memberId,
          data: {
            member_name: await this.deps.activity.personName(trx, memberId),
            role,
            old_role: before,
          },
        });
    });
    const member = await this.deps.repo.member(target, memberId);
    if (!member) throw new NotFound(MEMBER_MESSAGES.memberNotFound);
    const linksMade = await this.deps.repo.liveLinksMade(target, this.now());
    return toMember(member, linksMade.get(memberId) ?? 0);
  }

  /**
   * Removes a member (owner only) and revokes the invitations still pending for their address;
   * their next request (page, stream, desktop token) is refused. With `revokeLinks` (the
   * dialog's default) the share links they made there that still open are revoked too, each
   * recorded as revoked by the owner, in the same transaction as the removal.
   */
  async remove(
    userId: string,
    target: Target,
    memberId: string,
    options: { revokeLinks: boolean } = { revokeLinks: true },
  ): Promise<void> {
    const grant = await grantOn(this.deps.access, userId, target, 'manageMembers');
    if (memberId === grant.ownerId) throw new Conflict(MEMBER_MESSAGES.ownerCannotBeRemoved);
    await this.deps.repo.transaction(async (trx) => {
      const now = this.now();
      if (!(await this.deps.repo.removeMember(target, memberId, now, trx)))
        throw new NotFound(MEMBER_MESSAGES.memberNotFound);
      await recordOn(this.deps.activity, trx, target, {
        kind: 'member.removed',
        actor: { userId },
        targetId: memberId,
        data: { member_name: await this.deps.activity.personName(trx, memberId) },
      });
      if (!options.revokeLinks) return;
      for (const link of await this.deps.repo.revokeLinksMade(target, memberId, now, trx))
        await this.deps.activity.recordForVersion(trx, link.version_id, {
          kind: 'link.revoked',
          actor: { userId },
          targetId: link.id,
          data: { link_name: link.name },
        });
    });
  }

  /** Leaves a project or repository; the owner must hand it over first. */
  async leave(userId: string, target: Target): Promise<void> {
    const grant = await grantOn(this.deps.access, userId, target, 'view');
    if (grant.role === 'owner') throw new Conflict(MEMBER_MESSAGES.ownerCannotLeave);
    await this.deps.repo.transaction(async (trx) => {
      if (!(await this.deps.repo.leave(target, userId, trx))) return;
      await recordOn(this.deps.activity, trx, target, {
        kind: 'member.left',
        actor: { userId },
        targetId: userId,
        data: { role: grant.role },
      });
    });
  }

  // ---- ownership ----

  /** Hands a project to one of its editors; the caller stays on as an editor. */
  async transferProject(userId: string, projectId: string, toUserId: string): Promise<Project> {
    await this.transfer(userId, { kind: 'project', id: projectId }, toUserId);
    return this.deps.projects.get(userId, projectId);
  }

  /** Hands a repository to one of its editors; the caller stays on as an editor. */
  async transferRepo(userId: string, repoId: string, toUserId: string): Promise<Repository> {
    await this.transfer(userId, { kind: 'repository', id: repoId }, toUserId);
    return this.deps.repos.get(userId, repoId);
  }

  /** Refuses unless the caller owns the target and the new owner is one of its editors. */
  private async transfer(userId: string, target: Target, toUserId: string): Promise<void> {
    await grantOn(this.deps.access, userId, target, 'manageMembers');
    if (toUserId === userId) throw new Conflict(MEMBER_MESSAGES.transferToEditor);
    const outcome = await this.deps.repo.transfer(target, userId, toUserId, this.now());
    switch (outcome) {
      case 'done':
        return;
      case 'not-editor':
        throw new Conflict(MEMBER_MESSAGES.transferToEditor);
      case 'name-taken':
        throw new Conflict(
          MEMBER_MESSAGES.transferNameTaken((await this.deps.repo.targetName(target)) ?? ''),
        );
      case 'not-owner':
        // Handed over by a racing request: the caller is no longer the owner.
        throw new Forbidden(MEMBER_MESSAGES.needRole('owner'));
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** A person on the list; `linksMade` only for a caller who may manage the members. */
function toMember(row: PersonRow, linksMade?: number): Member {
  return {
    user_id: row.user_id,
    email: row.email,
    // The name they chose; the list shows their address beside it, or alone.
    name: listenerName(row),
    avatar_url: row.avatar_key ? avatarUrl(row.user_id, row.profile_updated_at) : null,
    role: row.role ?? 'owner',
    joined_at: row.joined_at,
    ...(linksMade === undefined ? {} : { links_made: linksMade }),
  };
}
