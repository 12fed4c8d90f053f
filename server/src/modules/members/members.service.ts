import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  EMAIL_UNVERIFIED_CODE,
  INVITATION_TTL_DAYS,
  MAX_PENDING_INVITATIONS,
  MEMBER_MESSAGES,
  may,
  type Action,
  type Invitation,
  type InvitationView,
  type Member,
  type MemberRole,
  type MembersResponse,
  type Project,
  type Repository,
  type Role,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { InvitationsTable } from '../../db/schema';
import { AppError, Conflict, Forbidden, Gone, NotFound, RateLimited } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import { NOT_FOUND, type AccessPolicy } from '../access';
import type { ActivityEvent, ActivityLog, Executor } from '../activity';
import { avatarUrl } from '../auth/auth.service';
import { toRepository } from '../repos/repos.presenter';
import { invitationEmail, invitationLink } from './invitation-email';
import {
  invitationTarget,
  type InvitationRow,
  type MembersRepo,
  type PersonRow,
  type Target,
  type TargetKind,
} from './members.repo';

export interface MembersDeps {
  access: AccessPolicy;
  repo: MembersRepo;
  mailer: Mailer;
  clock: Clock;
  limiter: RateLimiter;
  /** Records membership events (invited, joined, left, removed, role changed). */
  activity: ActivityLog;
  /** Where emailed links point (PUBLIC_URL, without a trailing slash). */
  publicUrl: string;
  /** The desktop app's URL scheme, for a repository's pull link. */
  desktopScheme: string;
  /** Whether an account has proven its address, and mailing it a code that proves it. */
  emailCheck: EmailCheck;
}

/** What accepting an invitation asks of the auth module (its service answers it). */
export interface EmailCheck {
  isEmailVerified(userId: string): Promise<boolean>;
  /** Mails a 6-digit code (limited like sign-in codes: 429 past the client address's limit). */
  sendAddressCheck(email: string, ip: string): Promise<'sent' | 'recent'>;
}

/** The signed-in caller of an invitation: their id and the email address their account has. */
export interface Caller {
  id: string;
  email: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Members of projects, repositories and collections: the member list, invitations by email (only a token's
 * hash is kept; a link works once, for the address it was sent to, for 7 days), roles, removal,
 * leaving and handing ownership to an editor. Every call asks the access policy first: a
 * non-member gets 404, a member below the owner 403 for what only the owner may do.
 */
export class MembersService {
  constructor(private readonly deps: MembersDeps) {}

  // ---- the member list ----

  /**
   * Members with the owner first; pending invitations, and how many live share links each
   * person made, only for whoever may manage the members.
   */
  async list(userId: string, target: Target): Promise<MembersResponse> {
    const grant = await this.grant(userId, target, 'view');
    const people = await this.deps.repo.people(target, grant.ownerId);
    if (!may(grant.role, 'manageMembers'))
      return { role: grant.role, members: people.map((p) => toMember(p)), invitations: [] };
    const now = this.now();
    const [pending, linksMade] = await Promise.all([
      this.deps.repo.pendingInvitations(target, now),
      this.deps.repo.liveLinksMade(target, now),
    ]);
    return {
      role: grant.role,
      members: people.map((p) => toMember(p, linksMade.get(p.user_id) ?? 0)),
      invitations: pending.map(toInvitation),
    };
  }

  // ---- invitations ----

  /** Emails a new invitation (owner only). Nothing changes when the address is already in. */
  async invite(
    userId: string,
    target: Target,
    input: { email: string; role: MemberRole },
  ): Promise<Invitation> {
    const grant = await this.grant(userId, target, 'manageMembers');
    const email = input.email.trim().toLowerCase();
    const now = this.now();
    const accounts = await this.deps.repo.usersWithEmail(email);
    if (accounts.includes(grant.ownerId) || (await this.deps.repo.anyMember(target, accounts)))
      throw new Conflict(MEMBER_MESSAGES.alreadyMember(email));
    if (await this.deps.repo.findPendingFor(target, email, now))
      throw new Conflict(MEMBER_MESSAGES.alreadyInvited(email));
    if ((await this.deps.repo.countPending(target, now)) >= MAX_PENDING_INVITATIONS)
      throw new RateLimited(MEMBER_MESSAGES.tooManyPending);
    await this.countSend(userId);

    const token = newToken();
    const row: InvitationsTable = {
      id: randomUUID(),
      project_id: target.kind === 'project' ? target.id : null,
      repo_id: target.kind === 'repository' ? target.id : null,
      collection_id: target.kind === 'collection' ? target.id : null,
      email,
      role: input.role,
      token_hash: hashToken(token),
      inviter_id: userId,
      created_at: now,
      sent_at: now,
      expires_at: this.expiry(now),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    };
    await this.deps.repo.insertInvitation(row);
    try {
      await this.sendInvitation(row, token);
    } catch (error) {
      // Unsent, the invitation would block the address as 'already invited' for a week.
      await this.deps.repo.deleteInvitation(row.id);
      throw error;
    }
    // Recorded once the email went out (an unsent invitation is deleted and never happened).
    await this.deps.repo.transaction((trx) =>
      this.record(trx, target, {
        kind: 'member.invited',
        actor: { userId },
        targetId: row.id,
        data: { email, role: input.role },
      }),
    );
    return toInvitation(row);
  }

  /** Emails a pending invitation again with a new link (owner only); the old link stops working. */
  async resend(userId: string, invitationId: string): Promise<Invitation> {
    const invitation = await this.ownedInvitation(userId, invitationId);
    await this.countSend(userId);
    const token = newToken();
    const now = this.now();
    const next = { token_hash: hashToken(token), sent_at: now, expires_at: this.expiry(now) };
    if (!(await this.deps.repo.replaceToken(invitation.id, next)))
      throw new NotFound(MEMBER_MESSAGES.invitationNotFound);
    try {
      await this.sendInvitation({ ...invitation, ...next }, token);
    } catch (error) {
      // The new link never reached anyone: the one already emailed keeps working.
      await this.deps.repo.restoreToken(invitation.id, {
        token_hash: invitation.token_hash,
        sent_at: invitation.sent_at,
        expires_at: invitation.expires_at,
      });
      throw error;
    }
    return toInvitation({ ...invitation, ...next });
  }

  /** Revokes a pending invitation (owner only); its link then answers 'no longer valid'. */
  async revoke(userId: string, invitationId: string): Promise<void> {
    const invitation = await this.ownedInvitation(userId, invitationId);
    await this.deps.repo.revokeInvitation(invitation.id, this.now());
  }

  /** What a link offers, for anyone holding it; 410 once it is expired, used or revoked. */
  async view(token: string, ip: string): Promise<InvitationView> {
    const invitation = await this.valid(token, ip);
    const target = targetOf(invitation);
    return {
      kind: target.kind,
      target_id: target.id,
      target_name: invitation.target_name,
      inviter_name: inviterName(invitation),
      email: invitation.email,
      role: invitation.role,
      expires_at: invitation.expires_at,
    };
  }

  /**
   * Accepts an invitation as the account it was sent to: that account becomes a member with the
   * invited role (the owner stays the owner). Another account gets 403 naming the address. An
   * account that never proved its address (made with a password) gets 403 with
   * `details.code = 'email_unverified'` and a 6-digit code by email: whoever holds a forwarded
   * link cannot sign up as the invitee and take the seat.
   */
  async accept(
    caller: Caller,
    token: string,
    ip: string,
  ): Promise<{ kind: TargetKind; target_id: string; role: Role }> {
    const invitation = await this.valid(token, ip);
    if (caller.email.trim().toLowerCase() !== invitation.email)
      throw new Forbidden(MEMBER_MESSAGES.wrongAccount(invitation.email));
    if (!(await this.deps.emailCheck.isEmailVerified(caller.id))) {
      await this.deps.emailCheck.sendAddressCheck(caller.email, ip);
      throw new AppError('forbidden', MEMBER_MESSAGES.confirmEmailToAccept(caller.email), {
        code: EMAIL_UNVERIFIED_CODE,
        email: caller.email,
      });
    }
    const target = targetOf(invitation);
    const current = await this.roleOn(caller.id, target);
    const isOwner = current === 'owner';
    await this.deps.repo.transaction(async (trx) => {
      const accepted = await this.deps.repo.acceptInvitation(
        invitation,
        caller.id,
        { isOwner, now: this.now() },
        trx,
      );
      if (!accepted) throw new Gone(MEMBER_MESSAGES.invitationInvalid);
      if (!isOwner)
        await this.record(trx, target, {
          kind: 'member.joined',
          actor: { userId: caller.id },
          targetId: caller.id,
          data: { role: invitation.role },
        });
    });
    return { kind: target.kind, target_id: target.id, role: isOwner ? 'owner' : invitation.role };
  }

  // ---- roles, removal, leaving ----

  /** Changes a member's role (owner only); it applies from their next request. */
  async changeRole(
    userId: string,
    target: Target,
    memberId: string,
    role: MemberRole,
  ): Promise<Member> {
    const grant = await this.grant(userId, target, 'manageMembers');
    if (memberId === grant.ownerId) throw new Conflict(MEMBER_MESSAGES.ownerRoleFixed);
    await this.deps.repo.transaction(async (trx) => {
      const before = await this.deps.repo.roleOf(target, memberId, trx);
      if (!(await this.deps.repo.setRole(target, memberId, role, trx)))
        throw new NotFound(MEMBER_MESSAGES.memberNotFound);
      if (before !== role)
        await this.record(trx, target, {
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
    const grant = await this.grant(userId, target, 'manageMembers');
    if (memberId === grant.ownerId) throw new Conflict(MEMBER_MESSAGES.ownerCannotBeRemoved);
    await this.deps.repo.transaction(async (trx) => {
      const now = this.now();
      if (!(await this.deps.repo.removeMember(target, memberId, now, trx)))
        throw new NotFound(MEMBER_MESSAGES.memberNotFound);
      await this.record(trx, target, {
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
    const grant = await this.grant(userId, target, 'view');
    if (grant.role === 'owner') throw new Conflict(MEMBER_MESSAGES.ownerCannotLeave);
    await this.deps.repo.transaction(async (trx) => {
      if (!(await this.deps.repo.leave(target, userId, trx))) return;
      await this.record(trx, target, {
        kind: 'member.left',
        actor: { userId },
        targetId: userId,
        data: { role: grant.role },
      });
    });
  }

  /**
   * Records a membership event on the project or repository. A collection has no activity feed
   * (its members are told nothing of each other's comings and goings).
   */
  private async record(
    trx: Executor,
    target: Target,
    event: Omit<ActivityEvent, 'projectId' | 'repoId'>,
  ): Promise<void> {
    if (target.kind === 'collection') return;
    await this.deps.activity.record(trx, {
      ...event,
      ...(target.kind === 'project' ? { projectId: target.id } : { repoId: target.id }),
    });
  }

  // ---- ownership ----

  /** Hands a project to one of its editors; the caller stays on as an editor. */
  async transferProject(userId: string, projectId: string, toUserId: string): Promise<Project> {
    await this.transfer(userId, { kind: 'project', id: projectId }, toUserId);
    const view = await this.deps.repo.projectView(projectId);
    if (!view) throw new NotFound(NOT_FOUND.project);
    const { project } = view;
    return {
      id: project.id,
      name: project.name,
      description: project.description,
      is_private: project.is_private === 1,
      created_at: project.created_at,
      updated_at: project.updated_at,
      owner_id: project.owner_id,
      listed: project.listed === 1,
      role: 'editor',
      branches: view.branches.map((b) => ({
        id: b.id,
        project_id: b.project_id,
        name: b.name,
        is_default: b.is_default === 1,
        version_count: b.version_count,
      })),
    };
  }

  /** Hands a repository to one of its editors; the caller stays on as an editor. */
  async transferRepo(userId: string, repoId: string, toUserId: string): Promise<Repository> {
    await this.transfer(userId, { kind: 'repository', id: repoId }, toUserId);
    const row = await this.deps.repo.repoView(repoId);
    if (!row) throw new NotFound(NOT_FOUND.repo);
    return toRepository(row, this.deps.desktopScheme, 'editor');
  }

  /** Refuses unless the caller owns the target and the new owner is one of its editors. */
  private async transfer(userId: string, target: Target, toUserId: string): Promise<void> {
    await this.grant(userId, target, 'manageMembers');
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

  // ---- helpers ----

  private grant(
    userId: string,
    target: Target,
    action: Action,
    notFound?: string,
  ): Promise<{ ownerId: string; role: Role }> {
    switch (target.kind) {
      case 'project':
        return this.deps.access.project(userId, target.id, action, notFound);
      case 'repository':
        return this.deps.access.repository(userId, target.id, action, notFound);
      case 'collection':
        return this.deps.access.collection(userId, target.id, action, notFound);
    }
  }

  /** The caller's role on the target, or null. */
  private roleOn(userId: string, target: Target): Promise<Role | null> {
    switch (target.kind) {
      case 'project':
        return this.deps.access.projectRole(userId, target.id);
      case 'repository':
        return this.deps.access.repoRole(userId, target.id);
      case 'collection':
        return this.deps.access.collectionRole(userId, target.id);
    }
  }

  /**
   * An invitation the caller may manage: 404 when it does not exist, is no longer pending, or
   * belongs to a target the caller is not a member of; 403 for a member who is not the owner.
   */
  private async ownedInvitation(userId: string, invitationId: string): Promise<InvitationsTable> {
    const invitation = await this.deps.repo.findInvitation(invitationId);
    if (!invitation) throw new NotFound(MEMBER_MESSAGES.invitationNotFound);
    await this.grant(
      userId,
      targetOf(invitation),
      'manageMembers',
      MEMBER_MESSAGES.invitationNotFound,
    );
    if (invitation.accepted_at !== null || invitation.revoked_at !== null)
      throw new NotFound(MEMBER_MESSAGES.invitationNotFound);
    return invitation;
  }

  /**
   * The pending invitation a link's token opens. A token that matches nothing counts against the
   * caller's address (many are a search, as with share-link keys); over the limit, 429.
   */
  private async valid(token: string, ip: string): Promise<InvitationRow> {
    const rule = AUTH_RATE_RULES.invitationMissIp;
    if (await this.deps.limiter.isLimited(rule, ip))
      throw new RateLimited(
        AUTH_MESSAGES.tooManyRequests,
        await this.deps.limiter.retryAfterSeconds(rule, ip),
      );
    const invitation = /^[\w-]+$/.test(token)
      ? await this.deps.repo.findByTokenHash(hashToken(token))
      : undefined;
    if (!invitation) {
      if (!(await this.deps.limiter.hit(rule, ip)))
        throw new RateLimited(
          AUTH_MESSAGES.tooManyRequests,
          await this.deps.limiter.retryAfterSeconds(rule, ip),
        );
      throw new Gone(MEMBER_MESSAGES.invitationInvalid);
    }
    if (
      invitation.accepted_at !== null ||
      invitation.revoked_at !== null ||
      invitation.expires_at <= this.now()
    )
      throw new Gone(MEMBER_MESSAGES.invitationInvalid);
    return invitation;
  }

  /**
   * Counts one invitation email against the inviter's mail budget (shared with collection links'
   * emails): 429 with Retry-After past 20 an hour.
   */
  private async countSend(userId: string): Promise<void> {
    const rule = AUTH_RATE_RULES.mailSendUser;
    if (!(await this.deps.limiter.hit(rule, userId)))
      throw new RateLimited(
        MEMBER_MESSAGES.tooManyInvitations,
        await this.deps.limiter.retryAfterSeconds(rule, userId),
      );
  }

  private async sendInvitation(invitation: InvitationsTable, token: string): Promise<void> {
    const target = targetOf(invitation);
    const [inviter, targetName] = await Promise.all([
      invitation.inviter_id ? this.deps.repo.person(invitation.inviter_id) : undefined,
      this.deps.repo.targetName(target),
    ]);
    await this.deps.mailer.send(
      invitationEmail({
        to: invitation.email,
        inviter: inviter ? nameOf(inviter.display_name, inviter.user_name, inviter.email) : SOMEONE,
        kind: target.kind,
        targetName: targetName ?? '',
        role: invitation.role,
        link: invitationLink(this.deps.publicUrl, token),
      }),
    );
  }

  private expiry(sentAt: string): string {
    return new Date(new Date(sentAt).getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString();
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** Who an invitation names when its inviter's account is gone. */
const SOMEONE = 'Someone';

/** 32 random bytes (256 bits), URL-safe; only its SHA-256 is stored. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function targetOf(
  invitation: Pick<InvitationsTable, 'project_id' | 'repo_id' | 'collection_id'>,
): Target {
  const target = invitationTarget(invitation);
  // Every invitation names one target (a deleted target deletes its invitations).
  if (!target) throw new Gone(MEMBER_MESSAGES.invitationInvalid);
  return target;
}

/** A display name, else the account name, else the fallback (blank names do not count). */
function nameOf(displayName: string | null, userName: string | null, fallback: string): string {
  return displayName?.trim() || userName?.trim() || fallback;
}

function inviterName(invitation: InvitationRow): string {
  if (invitation.inviter_email === null) return SOMEONE;
  return nameOf(
    invitation.inviter_display_name,
    invitation.inviter_user_name,
    invitation.inviter_email,
  );
}

/** A person on the list; `linksMade` only for a caller who may manage the members. */
function toMember(row: PersonRow, linksMade?: number): Member {
  return {
    user_id: row.user_id,
    email: row.email,
    name: row.display_name?.trim() || row.user_name?.trim() || null,
    avatar_url: row.avatar_key ? avatarUrl(row.user_id, row.profile_updated_at) : null,
    role: row.role ?? 'owner',
    joined_at: row.joined_at,
    ...(linksMade === undefined ? {} : { links_made: linksMade }),
  };
}

function toInvitation(row: InvitationsTable): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    sent_at: row.sent_at,
    expires_at: row.expires_at,
  };
}
