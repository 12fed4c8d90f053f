import { randomUUID } from 'node:crypto';
import {
  ACCESS_REQUEST_MESSAGES,
  ACCESS_REQUEST_RETRY_DAYS,
  type AccessRequest,
  type AccessRequestSent,
  type MemberRole,
} from '@takes/contract';
import type { RateLimiter, RateRule } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, NotFound, RateLimited } from '../../errors';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import { memberName, UNKNOWN_PERSON } from '../people';
import { avatarUrl } from '../profiles';
import type { AccessRequestsRepo } from './access-requests.repo';
import { grantOn } from './target-rules';

/** The project a link's listener is hearing: what a request is for. */
export interface LinkProject {
  projectId: string;
  projectName: string;
}

/**
 * How a link names its project, asked of the sharing and collections modules (wired in
 * `services.ts`): each opens its link as its listening routes do (revoked, expired, password).
 */
export interface LinkProjects {
  versionLink(hash: string, ip: string, cookies: string | undefined): Promise<LinkProject>;
  /** The project of an item a collection link shows now; null for a bounce (a repository). */
  collectionItem(
    hash: string,
    ip: string,
    cookies: string | undefined,
    itemId: string,
  ): Promise<LinkProject | null>;
}

export interface AccessRequestsDeps {
  access: AccessPolicy;
  repo: AccessRequestsRepo;
  links: LinkProjects;
  clock: Clock;
  limiter: RateLimiter;
  /** Records the request (its owner is notified and emailed) and a granted person's join. */
  activity: ActivityLog;
}

/** Requests one person may send an hour (each notifies and emails an owner). */
const REQUESTS_PER_HOUR: RateRule = {
  name: 'access-request:user',
  limit: 10,
  windowMs: 60 * 60 * 1000,
};
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * 'Request access' from a share link: a signed-in listener who is no member asks the project's
 * owner, who grants a role (Viewer by default) or declines. One open request per person per
 * project; a declined person may ask again after 7 days. Deciding is the owner's
 * (`manageMembers`, through the access policy: 404 for a stranger, 403 below Owner).
 */
export class AccessRequestsService {
  constructor(private readonly deps: AccessRequestsDeps) {}

  async fromVersionLink(
    userId: string,
    link: { hash: string; ip: string; cookies: string | undefined },
    note: string | undefined,
  ): Promise<AccessRequestSent> {
    const project = await this.deps.links.versionLink(link.hash, link.ip, link.cookies);
    return this.ask(userId, project, note);
  }

  /** A collection may span projects: the request is for the project of the item heard. */
  async fromCollectionLink(
    userId: string,
    link: { hash: string; ip: string; cookies: string | undefined },
    input: { item_id: string; note?: string | undefined },
  ): Promise<AccessRequestSent> {
    const project = await this.deps.links.collectionItem(
      link.hash,
      link.ip,
      link.cookies,
      input.item_id,
    );
    if (!project) throw new Conflict(ACCESS_REQUEST_MESSAGES.notAProject);
    return this.ask(userId, project, input.note);
  }

  async list(userId: string, projectId: string): Promise<{ requests: AccessRequest[] }> {
    await grantOn(this.deps.access, userId, { kind: 'project', id: projectId }, 'manageMembers');
    const rows = await this.deps.repo.open(projectId);
    return {
      requests: rows.map((row) => ({
        id: row.id,
        user_id: row.user_id,
        name: memberName(row) ?? UNKNOWN_PERSON,
        email: row.email,
        avatar_url: row.avatar_key ? avatarUrl(row.user_id, row.profile_updated_at) : null,
        note: row.note,
        created_at: row.created_at,
      })),
    };
  }

  /** The person joins at `role`, recorded as their join (the team hears of it). */
  async grant(
    userId: string,
    requestId: string,
    role: MemberRole,
  ): Promise<{ user_id: string; role: MemberRole }> {
    const request = await this.openRequest(userId, requestId);
    const now = this.now();
    await this.deps.repo.transaction(async (trx) => {
      const decision = { status: 'granted' as const, by: userId, role, now };
      if (!(await this.deps.repo.decide(trx, request.id, decision)))
        throw new NotFound(ACCESS_REQUEST_MESSAGES.notFound);
      const member = { projectId: request.project_id, userId: request.user_id, role, now };
      // Already in by another door (an invite link, an invitation): their role stays.
      if (!(await this.deps.repo.addMember(trx, member))) return;
      await this.deps.activity.record(trx, {
        kind: 'member.joined',
        projectId: request.project_id,
        actor: { userId: request.user_id },
        targetId: request.user_id,
        data: { role },
      });
    });
    return { user_id: request.user_id, role };
  }

  async decline(userId: string, requestId: string): Promise<void> {
    const request = await this.openRequest(userId, requestId);
    const decision = { status: 'declined' as const, by: userId, role: null, now: this.now() };
    await this.deps.repo.transaction(async (trx) => {
      if (!(await this.deps.repo.decide(trx, request.id, decision)))
        throw new NotFound(ACCESS_REQUEST_MESSAGES.notFound);
    });
  }

  private async ask(
    userId: string,
    project: LinkProject,
    note: string | undefined,
  ): Promise<AccessRequestSent> {
    const { projectId, projectName } = project;
    if (await this.deps.access.projectRole(userId, projectId))
      throw new Conflict(ACCESS_REQUEST_MESSAGES.alreadyMember);
    const latest = await this.deps.repo.latest(projectId, userId);
    if (latest?.status === 'open') throw new Conflict(ACCESS_REQUEST_MESSAGES.alreadyOpen);
    if (latest?.status === 'declined' && latest.decided_at) {
      const again = Date.parse(latest.decided_at) + ACCESS_REQUEST_RETRY_DAYS * DAY_MS;
      if (again > this.deps.clock.now().getTime())
        throw new Conflict(ACCESS_REQUEST_MESSAGES.declinedRecently(dayOf(again)));
    }
    if (!(await this.deps.limiter.hit(REQUESTS_PER_HOUR, userId)))
      throw new RateLimited(
        'Too many access requests. Please try again later.',
        await this.deps.limiter.retryAfterSeconds(REQUESTS_PER_HOUR, userId),
      );
    const now = this.now();
    const id = randomUUID();
    try {
      await this.deps.repo.transaction(async (trx) => {
        await this.deps.repo.insert(
          {
            id,
            project_id: projectId,
            user_id: userId,
            note: note?.trim() || null,
            status: 'open',
            created_at: now,
            decided_at: null,
            decided_by: null,
            granted_role: null,
          },
          trx,
        );
        await this.deps.activity.record(trx, {
          kind: 'member.access_requested',
          projectId,
          actor: { userId },
          targetId: id,
          data: { project_name: projectName },
        });
      });
    } catch (error) {
      // Two asks at once: the partial unique index let one in.
      if (isUniqueViolation(error)) throw new Conflict(ACCESS_REQUEST_MESSAGES.alreadyOpen);
      throw error;
    }
    return { id, project_name: projectName, created_at: now };
  }

  /** An open request the caller may decide: 404 when unknown, decided, or not their project. */
  private async openRequest(userId: string, requestId: string) {
    const request = await this.deps.repo.findById(requestId);
    if (!request) throw new NotFound(ACCESS_REQUEST_MESSAGES.notFound);
    await grantOn(
      this.deps.access,
      userId,
      { kind: 'project', id: request.project_id },
      'manageMembers',
      ACCESS_REQUEST_MESSAGES.notFound,
    );
    if (request.status !== 'open') throw new NotFound(ACCESS_REQUEST_MESSAGES.notFound);
    return request;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** '7 Dec 2026': the day a declined person may ask again (UTC). */
function dayOf(ms: number): string {
  const d = new Date(ms);
  const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
