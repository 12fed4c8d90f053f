import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SHARE_HASH_LENGTH, SHARE_MESSAGES, type Comment, type ShareLink } from '@takes/contract';
import type { Clock } from '../../clock';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type {
  CommentsTable,
  Database,
  LinksTable,
  ProjectsTable,
  VersionsTable,
} from '../../db/schema';
import { HttpError, notFound } from '../../http/errors';
import { avatarUrl } from '../auth/auth.service';
import { parseJson, pickAudio, type Renditions, type StoredAudio } from '../audio';
import { toVersion } from '../versions/version-view';
import { VersionsRepo } from '../versions/versions.repo';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function newShareHash(): string {
  let hash = '';
  for (let i = 0; i < SHARE_HASH_LENGTH; i++) hash += ALPHABET[randomInt(ALPHABET.length)];
  return hash;
}

/** What a valid link opens: exactly one version, with its project. */
export interface OpenedLink {
  link: LinksTable;
  version: VersionsTable;
  project: ProjectsTable;
}

/** What the link's audio route may stream now, or why it may not yet. */
export type LinkAudio = { ready: true; audio: StoredAudio } | { ready: false };

interface CommentRow extends CommentsTable {
  display_name: string | null;
  user_name: string | null;
  avatar_key: string | null;
  profile_updated_at: string | null;
}

/**
 * Private links to one version and the comments on versions. A link reaches its own version
 * and nothing else; unknown, revoked and expired links answer alike on every route.
 */
export class SharingService {
  private readonly versions: VersionsRepo;

  constructor(private readonly deps: { db: Kysely<Database>; clock: Clock; limiter: RateLimiter }) {
    this.versions = new VersionsRepo(deps.db);
  }

  async createLink(
    ownerId: string,
    versionId: string,
    input: {
      name?: string | undefined;
      download_enabled: boolean;
      expires_at?: string | null | undefined;
      listeners_see_each_other?: boolean | undefined;
    },
  ): Promise<ShareLink> {
    const found = await this.versions.findWithProject(ownerId, versionId);
    if (!found) throw notFound(SHARE_MESSAGES.versionNotFound);
    const row: LinksTable = {
      id: randomUUID(),
      hash: newShareHash(),
      version_id: versionId,
      project_id: found.project.id,
      owner_id: ownerId,
      name: input.name || `${found.project.name} - Version ${found.version.version_number}`,
      download_enabled: input.download_enabled ? 1 : 0,
      expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
      revoked_at: null,
      created_at: this.now(),
      listeners_see_each_other: input.listeners_see_each_other === false ? 0 : 1,
    };
    await this.deps.db.insertInto('links').values(row).execute();
    return toLink(row);
  }

  /** The owner changes a live link's options; someone else's or a revoked link is not found. */
  async updateLink(
    ownerId: string,
    linkId: string,
    input: { listeners_see_each_other: boolean },
  ): Promise<ShareLink> {
    const result = await this.deps.db
      .updateTable('links')
      .set({ listeners_see_each_other: input.listeners_see_each_other ? 1 : 0 })
      .where('id', '=', linkId)
      .where('owner_id', '=', ownerId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw notFound(SHARE_MESSAGES.linkNotFound);
    const row = await this.deps.db
      .selectFrom('links')
      .selectAll()
      .where('id', '=', linkId)
      .executeTakeFirstOrThrow();
    return toLink(row);
  }

  async listLinks(ownerId: string, versionId: string): Promise<ShareLink[]> {
    if (!(await this.versions.find(ownerId, versionId)))
      throw notFound(SHARE_MESSAGES.versionNotFound);
    const rows = await this.deps.db
      .selectFrom('links')
      .selectAll()
      .where('version_id', '=', versionId)
      .where('owner_id', '=', ownerId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toLink);
  }

  async revokeLink(ownerId: string, linkId: string): Promise<void> {
    const result = await this.deps.db
      .updateTable('links')
      .set({ revoked_at: this.now() })
      .where('id', '=', linkId)
      .where('owner_id', '=', ownerId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw notFound(SHARE_MESSAGES.linkNotFound);
  }

  /** Opens a link for a visitor: 404 unknown or revoked, 410 expired, 429 after many misses. */
  async open(hash: string, ip: string): Promise<OpenedLink> {
    if (await this.deps.limiter.isLimited(AUTH_RATE_RULES.linkMissIp, ip)) {
      throw new HttpError(429, 'Too many attempts. Please wait a moment and try again.');
    }
    const link = /^[A-Za-z0-9]+$/.test(hash)
      ? await this.deps.db
          .selectFrom('links')
          .selectAll()
          .where('hash', '=', hash)
          .executeTakeFirst()
      : undefined;
    if (!link || link.revoked_at) {
      await this.deps.limiter.hit(AUTH_RATE_RULES.linkMissIp, ip);
      throw notFound(SHARE_MESSAGES.linkNotFound);
    }
    if (link.expires_at && link.expires_at <= this.now())
      throw new HttpError(410, SHARE_MESSAGES.linkExpired);
    const version = await this.versions.findById(link.version_id);
    if (!version) throw notFound(SHARE_MESSAGES.versionNotFound);
    const project = await this.deps.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', link.project_id)
      .executeTakeFirst();
    if (!project) throw notFound(SHARE_MESSAGES.versionNotFound);
    return { link, version, project };
  }

  /**
   * The audio a link may stream. With download rights: the quality asked for (the original until
   * renditions exist). Without: the standard rendition only, never the original in any format, so
   * until processing has made it the link must wait.
   */
  linkAudio(
    { link, version }: Pick<OpenedLink, 'link' | 'version'>,
    quality: 'original' | 'high' | 'standard',
  ): LinkAudio {
    if (link.download_enabled === 1) return { ready: true, audio: pickAudio(version, quality) };
    const standard = parseJson<Renditions>(version.renditions, {}).standard;
    if (standard) return { ready: true, audio: pickAudio(version, 'standard') };
    if (version.status === 'failed') throw notFound('This quality is not available');
    return { ready: false };
  }

  sharedPage(opened: OpenedLink) {
    const { link, version, project } = opened;
    const view = toVersion(version);
    return {
      link: {
        name: link.name,
        download_enabled: link.download_enabled === 1,
        expires_at: link.expires_at,
      },
      project: { name: project.name },
      version: {
        id: version.id,
        version_number: version.version_number,
        message: version.message,
        created_at: version.created_at,
        status: version.status,
        audio_ready: this.audioReady(opened),
        waveform_data: view.waveform_data,
      },
    };
  }

  private audioReady(opened: Pick<OpenedLink, 'link' | 'version'>): boolean {
    try {
      return this.linkAudio(opened, 'standard').ready;
    } catch {
      return false;
    }
  }

  /** The team's view: every comment on the version, team-only ones included. */
  async listComments(versionId: string, options: { includeResolved: boolean }): Promise<Comment[]> {
    return (await this.commentRows(versionId, options)).map(toComment);
  }

  private async commentRows(
    versionId: string,
    options: { includeResolved: boolean },
  ): Promise<CommentRow[]> {
    let query = this.deps.db
      .selectFrom('comments')
      .leftJoin('profiles', 'profiles.user_id', 'comments.user_id')
      .leftJoin('users', 'users.id', 'comments.user_id')
      .selectAll('comments')
      .select([
        'profiles.display_name',
        'users.name as user_name',
        'profiles.avatar_key',
        'profiles.updated_at as profile_updated_at',
      ])
      .where('comments.version_id', '=', versionId);
    if (!options.includeResolved) query = query.where('comments.resolved_at', 'is', null);
    return query.orderBy('comments.created_at').orderBy('comments.id').execute();
  }

  /**
   * A link visitor's view: never a team-only comment or anything under one; and when the link's
   * 'Listeners see each other's comments' is off, only the threads its own visitors started or
   * joined (their comments and every reply under them).
   */
  async visitorComments(opened: Pick<OpenedLink, 'link' | 'version'>): Promise<Comment[]> {
    const all = await this.commentRows(opened.version.id, { includeResolved: true });
    const visible = visibleThroughLink(all, opened.link);
    return all.filter((c) => visible.has(c.id)).map(toComment);
  }

  async ownerComments(
    ownerId: string,
    versionId: string,
    includeResolved: boolean,
  ): Promise<Comment[]> {
    if (!(await this.versions.find(ownerId, versionId)))
      throw notFound(SHARE_MESSAGES.versionNotFound);
    return this.listComments(versionId, { includeResolved });
  }

  async addComment(input: {
    versionId: string;
    userId: string | null;
    visitorName: string | null;
    linkId: string | null;
    content: string;
    timestamp: number | null | undefined;
    parentId: string | null | undefined;
    teamOnly: boolean;
  }): Promise<Comment> {
    let teamOnly = input.teamOnly;
    if (input.parentId) {
      const parent = await this.deps.db
        .selectFrom('comments')
        .select(['version_id', 'team_only'])
        .where('id', '=', input.parentId)
        .executeTakeFirst();
      // A reply belongs to the same version as the comment it answers.
      if (!parent || parent.version_id !== input.versionId)
        throw notFound(SHARE_MESSAGES.commentNotFound);
      // A reply to a team-only comment is team-only too.
      if (parent.team_only === 1) teamOnly = true;
    }
    const id = randomUUID();
    await this.deps.db
      .insertInto('comments')
      .values({
        id,
        version_id: input.versionId,
        user_id: input.userId,
        visitor_name: input.visitorName,
        link_id: input.linkId,
        parent_id: input.parentId ?? null,
        content: input.content,
        timestamp_seconds: input.timestamp ?? null,
        resolved_at: null,
        created_at: this.now(),
        team_only: teamOnly ? 1 : 0,
      })
      .execute();
    const all = await this.listComments(input.versionId, { includeResolved: true });
    const created = all.find((c) => c.id === id);
    if (!created) throw new HttpError(500, 'Failed to save the comment');
    return created;
  }

  async addVisitorComment(
    opened: OpenedLink,
    ip: string,
    input: {
      visitorName: string | null;
      userId: string | null;
      content: string;
      timestamp: number | null | undefined;
      parentId: string | null | undefined;
    },
  ) {
    if (
      !(await this.deps.limiter.hit(
        AUTH_RATE_RULES.visitorCommentLinkIp,
        `${opened.link.id}:${ip}`,
      ))
    ) {
      throw new HttpError(
        429,
        'Too many comments in a short time. Please wait a moment and try again.',
      );
    }
    if (!input.userId && !input.visitorName) throw new HttpError(400, SHARE_MESSAGES.nameRequired);
    if (input.parentId) {
      // A visitor answers only what their link shows them: a hidden comment is not found.
      const visible = await this.visitorComments(opened);
      if (!visible.some((c) => c.id === input.parentId))
        throw notFound(SHARE_MESSAGES.commentNotFound);
    }
    // Visitors never write team-only comments.
    return this.addComment({
      versionId: opened.version.id,
      linkId: opened.link.id,
      ...input,
      teamOnly: false,
    });
  }

  /** The version owner may delete or resolve any comment on their versions. */
  async ownedComment(ownerId: string, commentId: string): Promise<CommentsTable> {
    const row = await this.deps.db
      .selectFrom('comments')
      .innerJoin('versions', 'versions.id', 'comments.version_id')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .selectAll('comments')
      .where('comments.id', '=', commentId)
      .where('projects.owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!row) throw notFound(SHARE_MESSAGES.commentNotFound);
    return row;
  }

  async deleteComment(ownerId: string, commentId: string): Promise<void> {
    await this.ownedComment(ownerId, commentId);
    await this.deps.db.deleteFrom('comments').where('id', '=', commentId).execute();
  }

  async setResolved(ownerId: string, commentId: string, resolved: boolean): Promise<Comment> {
    const row = await this.ownedComment(ownerId, commentId);
    await this.deps.db
      .updateTable('comments')
      .set({ resolved_at: resolved ? this.now() : null })
      .where('id', '=', commentId)
      .execute();
    const all = await this.listComments(row.version_id, { includeResolved: true });
    const updated = all.find((c) => c.id === commentId);
    if (!updated) throw notFound(SHARE_MESSAGES.commentNotFound);
    return updated;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function toLink(row: LinksTable): ShareLink {
  return {
    id: row.id,
    hash: row.hash,
    url: `/share/${row.hash}`,
    name: row.name,
    version_id: row.version_id,
    project_id: row.project_id,
    download_enabled: row.download_enabled === 1,
    expires_at: row.expires_at,
    created_at: row.created_at,
    listeners_see_each_other: row.listeners_see_each_other === 1,
  };
}

/**
 * The ids of the comments a link shows. A comment is hidden when it or any comment above it is
 * team-only. With 'Listeners see each other's comments' off, it shows only when it or a comment
 * above it was made through this link.
 */
export function visibleThroughLink(
  comments: readonly Pick<CommentsTable, 'id' | 'parent_id' | 'link_id' | 'team_only'>[],
  link: Pick<LinksTable, 'id' | 'listeners_see_each_other'>,
): Set<string> {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const visible = new Set<string>();
  for (const comment of comments) {
    let teamOnly = false;
    let throughThisLink = false;
    const seen = new Set<string>();
    // Walk up the thread (parents always exist: deleting one deletes its replies).
    for (
      let c: (typeof comments)[number] | undefined = comment;
      c && !seen.has(c.id);
      c = c.parent_id ? byId.get(c.parent_id) : undefined
    ) {
      seen.add(c.id);
      if (c.team_only === 1) teamOnly = true;
      if (c.link_id === link.id) throughThisLink = true;
    }
    if (!teamOnly && (link.listeners_see_each_other === 1 || throughThisLink))
      visible.add(comment.id);
  }
  return visible;
}

/** Author per the spec: profile display name, visitor name, 'Anonymous', or 'Unknown User'. */
function toComment(row: CommentRow): Comment {
  let author: string;
  if (row.user_id) author = row.display_name || row.user_name?.trim() || 'Unknown User';
  else author = row.visitor_name || 'Anonymous';
  return {
    id: row.id,
    version_id: row.version_id,
    user_id: row.user_id,
    visitor_name: row.visitor_name,
    author,
    avatar_url:
      row.user_id && row.avatar_key ? avatarUrl(row.user_id, row.profile_updated_at) : null,
    content: row.content,
    timestamp: row.timestamp_seconds,
    parent_id: row.parent_id,
    resolved: row.resolved_at !== null,
    created_at: row.created_at,
    team_only: row.team_only === 1,
  };
}
