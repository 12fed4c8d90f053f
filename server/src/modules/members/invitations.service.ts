import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  INVITATION_TTL_DAYS,
  MAX_PENDING_INVITATIONS,
  MEMBER_MESSAGES,
  type Invitation,
  type InvitationView,
  type MemberRole,
  type Role,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { InvitationsTable } from '../../db/schema';
import { Conflict, Forbidden, Gone, NotFound, RateLimited } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import { listenerName } from '../people';
import { invitationEmail, invitationLink } from './invitation-email';
import type { InvitationRow, InvitationsRepo } from './invitations.repo';
import { invitationTarget, type Target, type TargetKind } from './member-targets';
import type { MembersRepo } from './members.repo';
import { grantOn, recordOn, roleOn } from './target-rules';
import { requireVerifiedAddress, type EmailCheck } from './verified-address';

export interface InvitationsDeps {
  access: AccessPolicy;
  repo: InvitationsRepo;
  /** Who is already a member, and a target's name. */
  members: Pick<MembersRepo, 'anyMember' | 'targetName'>;
  mailer: Mailer;
  clock: Clock;
  limiter: RateLimiter;
  /** Records 'invited' and 'joined'. */
  activity: ActivityLog;
  /** Where emailed links point (PUBLIC_URL, without a trailing slash). */
  publicUrl: string;
  /** Whether an account has proven its address, and mailing it a code that proves it. */
  emailCheck: EmailCheck;
}

/** What accepting an invitation asks of the auth module (its service answers it). */
export type { EmailCheck };

/** The signed-in caller of an invitation: their id and the email address their account has. */
export interface Caller {
  id: string;
  email: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Invitations by email to a project, a repository or a collection: only a token's hash is kept;
 * a link works once, for the address it was sent to, for 7 days. Sending, resending and revoking
 * are the owner's (the access policy says so first); viewing is anyone's who holds the link, and
 * accepting is the invited account's.
 */
export class InvitationsService {
  constructor(private readonly deps: InvitationsDeps) {}

  /** Emails a new invitation (owner only). Nothing changes when the address is already in. */
  async invite(
    userId: string,
    target: Target,
    input: { email: string; role: MemberRole },
  ): Promise<Invitation> {
    const grant = await grantOn(this.deps.access, userId, target, 'manageMembers');
    const email = input.email.trim().toLowerCase();
    const now = this.now();
    const accounts = await this.deps.repo.usersWithEmail(email);
    if (accounts.includes(grant.ownerId) || (await this.deps.members.anyMember(target, accounts)))
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
      recordOn(this.deps.activity, trx, target, {
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
    await requireVerifiedAddress(
      this.deps.emailCheck,
      caller,
      ip,
      MEMBER_MESSAGES.confirmEmailToAccept,
    );
    const target = targetOf(invitation);
    const current = await roleOn(this.deps.access, caller.id, target);
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
        await recordOn(this.deps.activity, trx, target, {
          kind: 'member.joined',
          actor: { userId: caller.id },
          targetId: caller.id,
          data: { role: invitation.role },
        });
    });
    return { kind: target.kind, target_id: target.id, role: isOwner ? 'owner' : invitation.role };
  }

  // ---- helpers ----

  /**
   * An invitation the caller may manage: 404 when it does not exist, is no longer pending, or
   * belongs to a target the caller is not a member of; 403 for a member who is not the owner.
   */
  private async ownedInvitation(userId: string, invitationId: string): Promise<InvitationsTable> {
    const invitation = await this.deps.repo.findInvitation(invitationId);
    if (!invitation) throw new NotFound(MEMBER_MESSAGES.invitationNotFound);
    await grantOn(
      this.deps.access,
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
      this.deps.members.targetName(target),
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

function hashToken(token: string): string {
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

/** The name a person chose (the person presenter's), else the fallback. */
function nameOf(displayName: string | null, userName: string | null, fallback: string): string {
  return listenerName({ display_name: displayName, user_name: userName }) ?? fallback;
}

function inviterName(invitation: InvitationRow): string {
  if (invitation.inviter_email === null) return SOMEONE;
  return nameOf(
    invitation.inviter_display_name,
    invitation.inviter_user_name,
    invitation.inviter_email,
  );
}

export function toInvitation(row: InvitationsTable): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    sent_at: row.sent_at,
    expires_at: row.expires_at,
  };
}
