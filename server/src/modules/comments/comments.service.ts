import { randomUUID } from 'node:crypto';
import { REVIEW_MESSAGES, SHARE_MESSAGES, type Comment } from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import { Internal, Invalid, NotFound, RateLimited } from '../../errors';
import type { OpenedLink } from '../sharing';
import { visibleThroughLink } from './comment-visibility';
import { toComment } from './comments.presenter';
import type { CommentsRepo } from './comments.repo';
import type { AccessPolicy } from '../access';
import type { Carrier } from '../alignment';
import { versionData, type ActivityLog, type Actor, type Executor } from '../activity';

/**
 * What a visitor's comment says (a signed-in listener's account, or the name they gave). The
 * account counts only if it may comment on the project (see `CommentsService.asCommenter`).
 */
export interface VisitorCommentInput {
  visitorName: string | null;
  userId: string | null;
  content: string;
  timestamp: number | null | undefined;
  endTimestamp?: number | null | undefined;
  parentId: string | null | undefined;
}

/** A time may pass the stored length by this much (lengths and times are rounded). */
const TIME_MARGIN_SECONDS = 0.05;

/**
 * Comments on versions: the team's (the project's members under their own accounts, maybe
 * team-only) and those of visitors holding a share link, who see only what their link shows.
 * Members go through the access policy: any member reads, a Commenter writes and resolves or
 * deletes their own, an Editor resolves or deletes anybody's.
 */
export class CommentsService {
  constructor(
    private readonly deps: {
      access: AccessPolicy;
      comments: CommentsRepo;
      clock: Clock;
      /** Where the branch's earlier versions' comments sit on a version (absent in some tests). */
      carrierTo?: (versionId: string) => Promise<Carrier>;
      limiter: RateLimiter;
      activity: ActivityLog;
    },
  ) {}

  /** The team's view: every comment on the version, team-only ones included. */
  async listComments(versionId: string, options: { includeResolved: boolean }): Promise<Comment[]> {
    return (await this.deps.comments.listForVersion(versionId, options)).map((c) =>
      toComment(c, 'team'),
    );
  }

  /**
   * A link visitor's view: never a team-only comment, a comment made through a collection link,
   * or anything under either; and when the link's 'Listeners see each other's comments' is off,
   * only the threads its own visitors started or joined (their comments and every reply under
   * them).
   */
  async visitorComments(opened: Pick<OpenedLink, 'link' | 'version'>): Promise<Comment[]> {
    const all = await this.deps.comments.listForVersion(opened.version.id, {
      includeResolved: true,
    });
    const visible = visibleThroughLink(all, {
      own: (c) => c.link_id === opened.link.id,
      everyone: opened.link.listeners_see_each_other === 1,
    });
    return all.filter((c) => visible.has(c.id)).map((c) => toComment(c, 'listener'));
  }

  /** A member's view of a version's comments (any role). */
  async memberComments(
    userId: string,
    versionId: string,
    includeResolved: boolean,
    previous = false,
  ): Promise<Comment[]> {
    await this.deps.access.version(userId, versionId, 'view', SHARE_MESSAGES.versionNotFound);
    const rows = await this.deps.comments.listForVersion(versionId, { includeResolved, previous });
    if (!previous) return rows.map((c) => toComment(c, 'team'));
    // Earlier versions' open comments (with their replies) follow the music; resolved ones stay.
    const carried = new Set(
      rows
        .filter((c) => c.version_id !== versionId && c.parent_id === null && c.resolved_at === null)
        .map((c) => c.id),
    );
    const carry = this.deps.carrierTo ? await this.deps.carrierTo(versionId) : null;
    const tops = new Map<string, Comment>();
    return rows.flatMap((c) => {
      const comment = toComment(c, 'team');
      if (c.version_id === versionId) return [{ ...comment, carried: null }];
      const top = c.parent_id ?? c.id;
      if (!carried.has(top)) return [];
      if (!carry) return [comment];
      const moved = { ...comment, ...carry(comment) };
      if (c.parent_id === null) tops.set(c.id, moved);
      // A reply goes where its comment went (oldest first: the comment is already placed).
      const parent = tops.get(top);
      if (c.parent_id !== null && parent?.carried)
        return [
          {
            ...moved,
            carried: {
              ...parent.carried,
              from_timestamp: comment.timestamp,
              from_end_timestamp: comment.end_timestamp,
            },
          },
        ];
      return [moved];
    });
  }

  /** A member comments or replies under their own account (Commenter and up). */
  async addMemberComment(
    userId: string,
    versionId: string,
    input: {
      content: string;
      timestamp: number | null | undefined;
      endTimestamp?: number | null | undefined;
      parentId: string | null | undefined;
      teamOnly: boolean;
    },
  ): Promise<Comment> {
    await this.deps.access.version(userId, versionId, 'comment', SHARE_MESSAGES.versionNotFound);
    return this.addComment({ versionId, userId, visitorName: null, linkId: null, ...input });
  }

  async addComment(input: {
    versionId: string;
    userId: string | null;
    visitorName: string | null;
    linkId: string | null;
    /** Made through a collection link, on this item of it (only that link's listeners see it). */
    collectionLink?: { linkId: string; itemId: string };
    content: string;
    timestamp: number | null | undefined;
    endTimestamp?: number | null | undefined;
    parentId: string | null | undefined;
    teamOnly: boolean;
  }): Promise<Comment> {
    let teamOnly = input.teamOnly;
    // An empty parent id is no parent (as the check below reads it), not a row to point at.
    const parentId = input.parentId || null;
    // Milliseconds are all a position means; finer values (1e-81) underflow PostgreSQL's real.
    const timestamp = input.timestamp == null ? null : Math.round(input.timestamp * 1000) / 1000;
    const end = input.endTimestamp == null ? null : Math.round(input.endTimestamp * 1000) / 1000;
    await this.checkTimes(input.versionId, timestamp, end);
    if (parentId) {
      const parent = await this.deps.comments.findParent(parentId);
      // A reply belongs to the same version as the comment it answers.
      if (!parent || parent.version_id !== input.versionId)
        throw new NotFound(SHARE_MESSAGES.commentNotFound);
      // A reply to a team-only comment is team-only too.
      if (parent.team_only === 1) teamOnly = true;
    }
    const id = randomUUID();
    const actor: Actor = input.userId
      ? { userId: input.userId }
      : { visitorName: input.visitorName || 'Anonymous' };
    await this.deps.comments.transaction(async (trx) => {
      await this.deps.comments.insert(
        {
          id,
          version_id: input.versionId,
          user_id: input.userId,
          visitor_name: input.visitorName,
          link_id: input.linkId,
          parent_id: parentId,
          content: input.content,
          timestamp_seconds: timestamp,
          end_timestamp_seconds: end,
          resolved_at: null,
          created_at: this.now(),
          team_only: teamOnly ? 1 : 0,
          collection_link_id: input.collectionLink?.linkId ?? null,
          through_collection_link: input.collectionLink ? 1 : 0,
        },
        trx,
      );
      if (input.collectionLink)
        await this.deps.comments.insertCollectionLinkComment(
          {
            comment_id: id,
            link_id: input.collectionLink.linkId,
            item_id: input.collectionLink.itemId,
          },
          trx,
        );
      const facts = await this.deps.activity.versionFacts(trx, input.versionId);
      await this.deps.activity.record(trx, {
        kind: parentId ? 'comment.replied' : 'comment.posted',
        projectId: facts.project_id,
        actor,
        targetId: id,
        data: {
          ...versionData(facts),
          timestamp,
          end_timestamp: end,
          parent_id: parentId,
          team_only: teamOnly,
        },
      });
    });
    const all = await this.listComments(input.versionId, { includeResolved: true });
    const created = all.find((c) => c.id === id);
    if (!created) throw new Internal('Failed to save the comment');
    return created;
  }

  async addVisitorComment(opened: OpenedLink, ip: string, input: VisitorCommentInput) {
    await this.checkVisitorComment(`${opened.link.id}:${ip}`, input, () =>
      this.visitorComments(opened),
    );
    // Visitors never write team-only comments.
    return this.addComment({
      versionId: opened.version.id,
      linkId: opened.link.id,
      ...(await this.asCommenter(input, opened.version.id)),
      teamOnly: false,
    });
  }

  /** A signed-in listener comments under their account only with `comment` on the project. */
  private async asCommenter(
    input: VisitorCommentInput,
    versionId: string,
  ): Promise<VisitorCommentInput> {
    if (!input.userId) return input;
    const actor = await this.deps.access.throughLink(input.userId, versionId, 'comment');
    return 'userId' in actor ? input : { ...input, userId: null, visitorName: actor.visitorName };
  }

  /**
   * What every visitor's comment passes first: the per-link-and-address limit, a name (or an
   * account), and a parent among the comments their link shows them (a hidden one is not found).
   */
  private async checkVisitorComment(
    subject: string,
    input: VisitorCommentInput,
    visible: () => Promise<Comment[]>,
  ): Promise<void> {
    if (!(await this.deps.limiter.hit(AUTH_RATE_RULES.visitorCommentLinkIp, subject)))
      throw new RateLimited(
        'Too many comments in a short time. Please wait a moment and try again.',
      );
    if (!input.userId && !input.visitorName) throw new Invalid(SHARE_MESSAGES.nameRequired);
    if (input.parentId && !(await visible()).some((c) => c.id === input.parentId))
      throw new NotFound(SHARE_MESSAGES.commentNotFound);
  }

  /**
   * What a collection link's visitor sees of an item's version: only the threads started or
   * joined through that link (per-recipient links never show each other's comments), never a
   * team-only comment or anything under one.
   */
  async collectionLinkComments(linkId: string, versionId: string): Promise<Comment[]> {
    const all = await this.deps.comments.listForVersion(versionId, { includeResolved: true });
    const visible = visibleThroughLink(all, {
      own: (c) => c.collection_link_id === linkId,
      everyone: false,
    });
    return all.filter((c) => visible.has(c.id)).map((c) => toComment(c, 'listener'));
  }

  /** A visitor comments on one item through a collection link (limited as version links are). */
  async addCollectionLinkComment(
    opened: { linkId: string; itemId: string; versionId: string },
    ip: string,
    input: VisitorCommentInput,
  ): Promise<Comment> {
    await this.checkVisitorComment(`collection:${opened.linkId}:${ip}`, input, () =>
      this.collectionLinkComments(opened.linkId, opened.versionId),
    );
    return this.addComment({
      versionId: opened.versionId,
      linkId: null,
      collectionLink: { linkId: opened.linkId, itemId: opened.itemId },
      ...(await this.asCommenter(input, opened.versionId)),
      teamOnly: false,
    });
  }

  /**
   * A range needs a start before its end, and both within the track (when its length is known:
   * still being probed, it cannot be checked; a small margin covers rounding of the length).
   */
  private async checkTimes(versionId: string, start: number | null, end: number | null) {
    if (end === null) {
      if (start === null) return;
    } else {
      if (start === null) throw new Invalid(REVIEW_MESSAGES.rangeNeedsStart);
      if (end <= start) throw new Invalid(REVIEW_MESSAGES.rangeEndBeforeStart);
    }
    const duration = await this.deps.comments.versionDuration(versionId);
    if (duration === null) return;
    const limit = duration + TIME_MARGIN_SECONDS;
    if (start !== null && start > limit) throw new Invalid(REVIEW_MESSAGES.timeBeyondTrack);
    if (end !== null && end > limit) throw new Invalid(REVIEW_MESSAGES.rangeBeyondTrack);
  }

  /** Deletes a comment with its replies: its author (Commenter and up) or an Editor. */
  async deleteComment(userId: string, commentId: string): Promise<void> {
    await this.deps.access.comment(userId, commentId, 'comment', SHARE_MESSAGES.commentNotFound);
    await this.deps.comments.transaction(async (trx) => {
      const comment = await this.deps.comments.find(commentId, trx);
      if (!comment) throw new NotFound(SHARE_MESSAGES.commentNotFound);
      await this.deps.comments.delete(commentId, trx);
      await this.recordAbout(trx, 'comment.deleted', userId, commentId, comment);
    });
  }

  /** Resolves or reopens a comment: its author (Commenter and up) or an Editor. */
  async setResolved(userId: string, commentId: string, resolved: boolean): Promise<Comment> {
    const { versionId } = await this.deps.access.comment(
      userId,
      commentId,
      'comment',
      SHARE_MESSAGES.commentNotFound,
    );
    await this.deps.comments.transaction(async (trx) => {
      const comment = await this.deps.comments.find(commentId, trx);
      if (!comment) throw new NotFound(SHARE_MESSAGES.commentNotFound);
      await this.deps.comments.setResolvedAt(commentId, resolved ? this.now() : null, trx);
      await this.recordAbout(
        trx,
        resolved ? 'comment.resolved' : 'comment.reopened',
        userId,
        commentId,
        comment,
      );
    });
    const all = await this.listComments(versionId, { includeResolved: true });
    const updated = all.find((c) => c.id === commentId);
    if (!updated) throw new NotFound(SHARE_MESSAGES.commentNotFound);
    return updated;
  }

  /** Records an event about an existing comment (resolved, reopened, deleted). */
  private async recordAbout(
    trx: Executor,
    kind: 'comment.resolved' | 'comment.reopened' | 'comment.deleted',
    userId: string,
    commentId: string,
    comment: {
      version_id: string;
      timestamp_seconds: number | null;
      end_timestamp_seconds: number | null;
      parent_id: string | null;
    },
  ): Promise<void> {
    const facts = await this.deps.activity.versionFacts(trx, comment.version_id);
    await this.deps.activity.record(trx, {
      kind,
      projectId: facts.project_id,
      actor: { userId },
      targetId: commentId,
      data: {
        ...versionData(facts),
        timestamp: comment.timestamp_seconds,
        end_timestamp: comment.end_timestamp_seconds,
        parent_id: comment.parent_id,
      },
    });
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
