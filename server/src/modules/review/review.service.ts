import { randomUUID } from 'node:crypto';
import {
  REVIEW_MESSAGES,
  SHARE_MESSAGES,
  type CompareResponse,
  type ReviewEvent,
  type ReviewState,
  type ReviewStatus,
  type VersionReview,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import { Forbidden, Invalid, NotFound, RateLimited } from '../../errors';
import type { AccessPolicy } from '../access';
import type { ActivityLog, Actor } from '../activity';
import { listenerName, UNKNOWN_PERSON } from '../people';
import type { OpenedLink } from '../sharing';
import type { VersionsService } from '../versions';
import type { ReviewRepo, ReviewRow } from './review.repo';

/**
 * Reviewing versions: the review status ('In review', 'Changes requested', 'Approved') set by an
 * Editor or the owner, or by a share link's listener when the link allows approval; every change
 * is kept (who, when, through which link) and recorded as activity, which notifies the team.
 * Also the compare of two versions of one project.
 */
export class ReviewService {
  constructor(
    private readonly deps: {
      access: AccessPolicy;
      repo: ReviewRepo;
      versions: VersionsService;
      clock: Clock;
      limiter: RateLimiter;
      activity: ActivityLog;
    },
  ) {}

  /** The members' view: status and history (any member). */
  async review(userId: string, versionId: string): Promise<VersionReview> {
    await this.deps.access.version(userId, versionId, 'view', SHARE_MESSAGES.versionNotFound);
    return this.fullReview(versionId);
  }

  /** An Editor or the owner sets the status. */
  async setReview(userId: string, versionId: string, status: ReviewStatus): Promise<VersionReview> {
    await this.deps.access.version(userId, versionId, 'review', SHARE_MESSAGES.versionNotFound);
    await this.change(versionId, status, { userId }, {});
    return this.fullReview(versionId);
  }

  /**
   * 'Mark the winner Approved' of a blind test: an Editor or the owner approves the version, and
   * the change says it came from the test.
   */
  async approveFromBlindTest(
    userId: string,
    versionId: string,
    test: { id: string; name: string },
  ): Promise<ReviewState> {
    await this.deps.access.version(userId, versionId, 'review', SHARE_MESSAGES.versionNotFound);
    await this.change(versionId, 'approved', { userId }, { blindTest: test });
    return this.state(versionId);
  }

  /**
   * A listener sets the status through a link that allows approval: a signed-in listener who may
   * review the project (Editor and up) under their account, any other signed-in listener under
   * their account's name as a visitor (`AccessPolicy.throughLink`), anyone else under the name
   * they give.
   */
  async setVisitorReview(
    opened: Pick<OpenedLink, 'link' | 'version'>,
    ip: string,
    input: { status: ReviewStatus; userId: string | null; visitorName: string | null },
  ): Promise<ReviewState> {
    if (opened.link.allow_approval !== 1) throw new Forbidden(REVIEW_MESSAGES.approvalNotAllowed);
    if (
      !(await this.deps.limiter.hit(
        AUTH_RATE_RULES.visitorCommentLinkIp,
        `${opened.link.id}:${ip}`,
      ))
    ) {
      throw new RateLimited(
        'Too many changes in a short time. Please wait a moment and try again.',
      );
    }
    if (!input.userId && !input.visitorName) throw new Invalid(SHARE_MESSAGES.nameRequired);
    const actor: Actor = input.userId
      ? await this.deps.access.throughLink(input.userId, opened.version.id, 'review')
      : { visitorName: input.visitorName ?? 'Anonymous' };
    await this.change(opened.version.id, input.status, actor, { linkId: opened.link.id });
    return this.state(opened.version.id);
  }

  /** The status and its latest change, as a link's page shows it. */
  async state(versionId: string): Promise<ReviewState> {
    const [status, latest] = await Promise.all([
      this.deps.repo.status(versionId),
      this.deps.repo.history(versionId, 1),
    ]);
    if (!status) throw new NotFound(SHARE_MESSAGES.versionNotFound);
    return stateOf(status, latest[0]);
  }

  /** Two versions of one project, any branches, for the A/B compare (any member). */
  async compare(userId: string, projectId: string, a: string, b: string): Promise<CompareResponse> {
    // A stranger learns nothing, not even that the two ids are the same.
    await this.deps.access.project(userId, projectId, 'view');
    if (a === b) throw new Invalid(REVIEW_MESSAGES.compareSameVersion);
    // Each side goes through the policy; one from another project is not found here.
    const [left, right] = await Promise.all([
      this.deps.versions.getWithProject(userId, a),
      this.deps.versions.getWithProject(userId, b),
    ]);
    if (left.project_id !== projectId || right.project_id !== projectId)
      throw new NotFound(SHARE_MESSAGES.versionNotFound);
    const [leftBranch, rightBranch] = await Promise.all([
      this.deps.repo.branchName(left.branch_id),
      this.deps.repo.branchName(right.branch_id),
    ]);
    const { project, ...aSide } = left;
    const { project: _same, ...bSide } = right;
    void _same;
    return {
      project,
      a: { ...aSide, branch_name: leftBranch ?? '' },
      b: { ...bSide, branch_name: rightBranch ?? '' },
    };
  }

  /** Sets the status (a change to the same status records nothing) with its history and activity. */
  private async change(
    versionId: string,
    status: ReviewStatus,
    actor: Actor,
    via: { linkId?: string; blindTest?: { id: string; name: string } },
  ): Promise<void> {
    const linkId = via.linkId ?? null;
    await this.deps.repo.transaction(async (trx) => {
      const current = await this.deps.repo.currentStatus(trx, versionId);
      if (!current) throw new NotFound(SHARE_MESSAGES.versionNotFound);
      if (current === status) return;
      const id = randomUUID();
      await this.deps.repo.setStatus(trx, {
        id,
        version_id: versionId,
        status,
        user_id: 'userId' in actor ? actor.userId : null,
        visitor_name: 'visitorName' in actor ? actor.visitorName : null,
        link_id: linkId,
        blind_test_id: via.blindTest?.id ?? null,
        created_at: this.deps.clock.now().toISOString(),
      });
      await this.deps.activity.recordForVersion(trx, versionId, {
        kind: 'version.review_changed',
        actor,
        targetId: versionId,
        data: {
          status,
          previous_status: current,
          through_link: linkId !== null,
          ...(via.blindTest ? { blind_test: via.blindTest.name } : {}),
        },
      });
    });
  }

  private async fullReview(versionId: string): Promise<VersionReview> {
    const [status, rows] = await Promise.all([
      this.deps.repo.status(versionId),
      this.deps.repo.history(versionId),
    ]);
    if (!status) throw new NotFound(SHARE_MESSAGES.versionNotFound);
    return { ...stateOf(status, rows[0]), history: rows.map(toEvent) };
  }
}

function authorOf(row: ReviewRow): string {
  // Link listeners read the history too: never any part of an address.
  if (row.user_id) return listenerName(row) ?? UNKNOWN_PERSON;
  return row.visitor_name || 'Anonymous';
}

function stateOf(status: ReviewStatus, latest: ReviewRow | undefined): ReviewState {
  return {
    status,
    changed_at: latest?.created_at ?? null,
    changed_by: latest ? authorOf(latest) : null,
  };
}

function toEvent(row: ReviewRow): ReviewEvent {
  return {
    id: row.id,
    version_id: row.version_id,
    status: row.status,
    author: authorOf(row),
    user_id: row.user_id,
    visitor_name: row.visitor_name,
    through_link: row.link_id !== null,
    from_blind_test: row.blind_test_name ?? null,
    created_at: row.created_at,
  };
}
