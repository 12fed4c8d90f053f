import { randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  INVITE_LINK_DEFAULT_NAME,
  INVITE_LINK_MESSAGES,
  MAX_LIVE_INVITE_LINKS,
  type CreateInviteLinkBody,
  type InviteLink,
  type InviteLinkView,
  type JoinInviteLinkResponse,
  type MemberRole,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { InviteLinksTable } from '../../db/schema';
import { Conflict, Gone, NotFound, RateLimited } from '../../errors';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import { listenerName } from '../people';
import { newShareHash } from '../sharing';
import type { InviteLinksRepo } from './invite-links.repo';
import { grantOn } from './target-rules';
import { requireVerifiedAddress, type EmailCheck } from './verified-address';

export interface InviteLinksDeps {
  access: AccessPolicy;
  repo: InviteLinksRepo;
  clock: Clock;
  /** Counts unknown keys per client address, as invitation tokens are. */
  limiter: RateLimiter;
  /** Records each join, with the link's name. */
  activity: ActivityLog;
  /** Where links point (PUBLIC_URL, without a trailing slash). */
  publicUrl: string;
  /** Joining needs a proven address, as accepting an invitation does. */
  emailCheck: EmailCheck;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Thrown inside a join's transaction when the caller turned out to be in already: undoes the use. */
class AlreadyIn extends Error {}

/**
 * Invite links to a project: made, listed and revoked by its owner (the access policy says so
 * first); opened by anyone holding one; joined by a signed-in account with a proven address,
 * one use each, at the link's role. A member already in keeps their role and takes no use.
 */
export class InviteLinksService {
  constructor(private readonly deps: InviteLinksDeps) {}

  async list(userId: string, projectId: string): Promise<{ links: InviteLink[] }> {
    await grantOn(this.deps.access, userId, project(projectId), 'manageMembers');
    const rows = await this.deps.repo.live(projectId, this.now());
    return { links: rows.map((row) => this.toInviteLink(row)) };
  }

  /** A new link; 429 past the live-link limit, counted under the project's row lock. */
  async create(
    userId: string,
    projectId: string,
    body: Required<Omit<CreateInviteLinkBody, 'name'>> & { name?: string },
  ): Promise<InviteLink> {
    await grantOn(this.deps.access, userId, project(projectId), 'manageMembers');
    const now = this.now();
    const row: InviteLinksTable = {
      id: randomUUID(),
      project_id: projectId,
      link_key: newShareHash(),
      creator_id: userId,
      name: body.name?.trim() || INVITE_LINK_DEFAULT_NAME,
      role: body.role,
      max_uses: body.max_uses,
      uses: 0,
      created_at: now,
      expires_at: new Date(Date.parse(now) + body.expires_in_days * DAY_MS).toISOString(),
      revoked_at: null,
    };
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.lockProject(trx, projectId);
      if ((await this.deps.repo.live(projectId, now, trx)).length >= MAX_LIVE_INVITE_LINKS)
        throw new RateLimited(INVITE_LINK_MESSAGES.tooManyLive);
      await this.deps.repo.insert(row, trx);
    });
    return this.toInviteLink(row);
  }

  /** 'Revoke': the link stops working at once (owner only; 404 for a link already gone). */
  async revoke(userId: string, inviteLinkId: string): Promise<void> {
    const link = await this.deps.repo.findById(inviteLinkId);
    if (!link) throw new NotFound(INVITE_LINK_MESSAGES.notFound);
    await grantOn(
      this.deps.access,
      userId,
      project(link.project_id),
      'manageMembers',
      INVITE_LINK_MESSAGES.notFound,
    );
    if (link.revoked_at !== null) throw new NotFound(INVITE_LINK_MESSAGES.notFound);
    await this.deps.repo.revoke(link.id, this.now());
  }

  /** What the join page shows, for anyone holding the link; 410 once it no longer works. */
  async view(key: string, ip: string): Promise<InviteLinkView> {
    const link = await this.valid(key, ip);
    return {
      project_id: link.project_id,
      project_name: link.project_name,
      inviter_name:
        listenerName({
          display_name: link.creator_display_name,
          user_name: link.creator_user_name,
        }) ?? 'Someone',
      role: link.role,
      expires_at: link.expires_at,
    };
  }

  /**
   * Joins the link's project at its role, taking one use in the same transaction as the member
   * row and the 'joined' activity (with the link's name): of concurrent joins on the last use,
   * exactly one wins and the others get 410.
   */
  async join(
    caller: { id: string; email: string },
    key: string,
    ip: string,
  ): Promise<JoinInviteLinkResponse> {
    const link = await this.valid(key, ip);
    await requireVerifiedAddress(
      this.deps.emailCheck,
      caller,
      ip,
      INVITE_LINK_MESSAGES.confirmEmailToJoin,
    );
    const current = await this.deps.access.projectRole(caller.id, link.project_id);
    if (current) return { project_id: link.project_id, role: current, joined: false };
    const now = this.now();
    try {
      await this.deps.repo.transaction(async (trx) => {
        if (!(await this.deps.repo.takeUse(trx, link.id, now)))
          throw new Gone(INVITE_LINK_MESSAGES.invalid);
        const member = { projectId: link.project_id, userId: caller.id, role: link.role, now };
        if (!(await this.deps.repo.addMember(trx, member))) throw new AlreadyIn();
        await this.deps.activity.record(trx, {
          kind: 'member.joined',
          projectId: link.project_id,
          actor: { userId: caller.id },
          targetId: caller.id,
          data: { role: link.role, invite_link_name: link.name },
        });
      });
    } catch (error) {
      if (!(error instanceof AlreadyIn)) throw error;
      // A second join of the same person at the same moment: the first one let them in.
      const role = await this.deps.access.projectRole(caller.id, link.project_id);
      if (!role) throw new Conflict(INVITE_LINK_MESSAGES.invalid);
      return { project_id: link.project_id, role, joined: false };
    }
    return { project_id: link.project_id, role: link.role satisfies MemberRole, joined: true };
  }

  /**
   * The live link a key opens. A key that matches nothing counts against the caller's address
   * (many are a search, as with invitation tokens); over the limit, 429.
   */
  private async valid(key: string, ip: string) {
    const rule = AUTH_RATE_RULES.invitationMissIp;
    const limited = async () =>
      new RateLimited(
        AUTH_MESSAGES.tooManyRequests,
        await this.deps.limiter.retryAfterSeconds(rule, ip),
      );
    if (await this.deps.limiter.isLimited(rule, ip)) throw await limited();
    const link = /^[A-Za-z0-9]+$/.test(key) ? await this.deps.repo.findByKey(key) : undefined;
    if (!link) {
      if (!(await this.deps.limiter.hit(rule, ip))) throw await limited();
      throw new Gone(INVITE_LINK_MESSAGES.invalid);
    }
    if (link.revoked_at !== null || link.expires_at <= this.now() || link.uses >= link.max_uses)
      throw new Gone(INVITE_LINK_MESSAGES.invalid);
    return link;
  }

  private toInviteLink(row: InviteLinksTable): InviteLink {
    return {
      id: row.id,
      name: row.name,
      role: row.role,
      max_uses: row.max_uses,
      uses: row.uses,
      uses_left: Math.max(0, row.max_uses - row.uses),
      created_at: row.created_at,
      expires_at: row.expires_at,
      url: `${this.deps.publicUrl}/join/${row.link_key}`,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

const project = (id: string) => ({ kind: 'project' as const, id });
