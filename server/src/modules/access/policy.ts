import {
  ACTIONS,
  MEMBER_MESSAGES,
  roleAtLeast,
  VISITOR_NAME_MAX_LENGTH,
  type Action,
  type Role,
} from '@takes/contract';
import { Forbidden, NotFound } from '../../errors';
import type {
  AccessRepo,
  CollectionPlace,
  ProjectPlace,
  RepoPlace,
  SessionAudioRow,
  VersionAudioRow,
} from './access.repo';

/** A yes from the policy: where the object is and the caller's role there. */
export interface ProjectGrant {
  projectId: string;
  ownerId: string;
  isPrivate: boolean;
  role: Role;
}
export interface VersionGrant extends ProjectGrant {
  versionId: string;
  branchId: string;
}
export interface BranchGrant extends ProjectGrant {
  branchId: string;
}
export interface CommentGrant extends ProjectGrant {
  commentId: string;
  versionId: string;
  authorId: string | null;
}
export interface LinkGrant extends ProjectGrant {
  linkId: string;
  versionId: string;
}
export interface RepoGrant {
  repoId: string;
  ownerId: string;
  role: Role;
}
export interface BounceGrant extends RepoGrant {
  bounceId: string;
}
export interface CollectionGrant {
  collectionId: string;
  ownerId: string;
  role: Role;
}

export const NOT_FOUND = {
  project: 'Project not found',
  version: 'Version not found',
  branch: 'Branch not found',
  comment: 'Comment not found',
  link: 'Link not found',
  repo: 'Repository not found',
  bounce: 'Bounce not found',
  collection: 'Collection not found',
} as const;

/**
 * The one place that decides who may do what to a project's or a repository's objects. A
 * non-member (or a missing object) is NotFound — the two cannot be told apart; a member whose role
 * is too low for the action is Forbidden with "You need {role} access to do this.". The role is
 * read from the database on every call, so a removed member is refused on their next request.
 */
export class AccessPolicy {
  constructor(private readonly repo: AccessRepo) {}

  /** The caller's role on a project, or null (not a member, or no such project). */
  async projectRole(userId: string, projectId: string): Promise<Role | null> {
    return (await this.repo.project(userId, projectId))?.role ?? null;
  }

  async repoRole(userId: string, repoId: string): Promise<Role | null> {
    return (await this.repo.repo(userId, repoId))?.role ?? null;
  }

  async project(
    userId: string,
    projectId: string,
    action: Action,
    notFound: string = NOT_FOUND.project,
  ): Promise<ProjectGrant> {
    return projectGrant(allow(await this.repo.project(userId, projectId), action, notFound));
  }

  async version(
    userId: string,
    versionId: string,
    action: Action,
    notFound: string = NOT_FOUND.version,
  ): Promise<VersionGrant> {
    const place = allow(await this.repo.version(userId, versionId), action, notFound);
    return { ...projectGrant(place), versionId: place.version_id, branchId: place.branch_id };
  }

  /**
   * Who a signed-in listener acts as through a share link (a comment, a review change): their
   * account while their own role on the version's project allows `action`; otherwise a visitor
   * named after their account, with no account on it. A link never lets a Viewer or a stranger
   * act as a member.
   */
  async throughLink(
    userId: string,
    versionId: string,
    action: Action,
  ): Promise<{ userId: string } | { visitorName: string }> {
    const place = await this.repo.version(userId, versionId);
    if (place?.role && roleAtLeast(place.role, ACTIONS[action])) return { userId };
    const name = (await this.repo.accountName(userId)) ?? 'Anonymous';
    return { visitorName: name.slice(0, VISITOR_NAME_MAX_LENGTH) };
  }

  /** As `version`, with the columns that say which audio to stream (one query). */
  async versionAudio(userId: string, versionId: string, action: Action) {
    return this.versionAudioOf(await this.repo.versionAudio(userId, versionId), action);
  }

  /**
   * A cookie session and `versionAudio` for its user, read in one statement (see
   * AccessRepo.sessionVersionAudio): the caller judges the session first, then asks
   * `versionAudioOf` about the version.
   */
  sessionVersionAudio(token: string, versionId: string): Promise<SessionAudioRow | undefined> {
    return this.repo.sessionVersionAudio(token, versionId);
  }

  /** The policy's answer for a version's audio place read by `versionAudio` or `sessionVersionAudio`. */
  versionAudioOf(found: VersionAudioRow | SessionAudioRow | undefined, action: Action) {
    const place = allow(isVersionAudio(found) ? found : undefined, action, NOT_FOUND.version);
    return {
      grant: {
        ...projectGrant(place),
        versionId: place.version_id,
        branchId: place.branch_id,
      } satisfies VersionGrant,
      audio: place,
    };
  }

  async branch(
    userId: string,
    branchId: string,
    action: Action,
    notFound: string = NOT_FOUND.branch,
  ): Promise<BranchGrant> {
    const place = allow(await this.repo.branch(userId, branchId), action, notFound);
    return { ...projectGrant(place), branchId: place.branch_id };
  }

  /**
   * A comment, for resolving or deleting it: its author needs Commenter, anyone else Editor
   * (`moderateComments`). Pass 'view' to only read it.
   */
  async comment(
    userId: string,
    commentId: string,
    action: 'view' | 'comment',
    notFound: string = NOT_FOUND.comment,
  ): Promise<CommentGrant> {
    const found = await this.repo.comment(userId, commentId);
    const own = found?.author_id != null && found.author_id === userId;
    const needed: Action = action === 'comment' && !own ? 'moderateComments' : action;
    const place = allow(found, needed, notFound);
    return {
      ...projectGrant(place),
      commentId: place.comment_id,
      versionId: place.version_id,
      authorId: place.author_id,
    };
  }

  async link(
    userId: string,
    linkId: string,
    action: Action,
    notFound: string = NOT_FOUND.link,
  ): Promise<LinkGrant> {
    const place = allow(await this.repo.link(userId, linkId), action, notFound);
    return { ...projectGrant(place), linkId: place.link_id, versionId: place.version_id };
  }

  async repository(
    userId: string,
    repoId: string,
    action: Action,
    notFound: string = NOT_FOUND.repo,
  ): Promise<RepoGrant> {
    return repoGrant(allow(await this.repo.repo(userId, repoId), action, notFound));
  }

  async bounce(
    userId: string,
    bounceId: string,
    action: Action,
    notFound: string = NOT_FOUND.bounce,
  ): Promise<BounceGrant> {
    const place = allow(await this.repo.bounce(userId, bounceId), action, notFound);
    return { ...repoGrant(place), bounceId: place.bounce_id };
  }

  /** The caller's role on a collection, or null (not a member, or no such collection). */
  async collectionRole(userId: string, collectionId: string): Promise<Role | null> {
    return (await this.repo.collection(userId, collectionId))?.role ?? null;
  }

  /**
   * A collection, with the same roles as a project's. Membership of a collection grants nothing
   * in the projects its items come from: what an item shows is decided per project, for the caller.
   */
  async collection(
    userId: string,
    collectionId: string,
    action: Action,
    notFound: string = NOT_FOUND.collection,
  ): Promise<CollectionGrant> {
    const place: CollectionPlace & { role: Role } = allow(
      await this.repo.collection(userId, collectionId),
      action,
      notFound,
    );
    return { collectionId: place.collection_id, ownerId: place.owner_id, role: place.role };
  }

  /** A Public project, for anyone (signed out included); NotFound while it is private. */
  async publicProject(projectId: string): Promise<{ projectId: string }> {
    const place = await this.repo.publicProject(projectId);
    if (!place) throw new NotFound(NOT_FOUND.project);
    return { projectId: place.project_id };
  }

  async publicVersion(versionId: string): Promise<{ projectId: string; versionId: string }> {
    const place = await this.repo.publicVersion(versionId);
    if (!place) throw new NotFound(NOT_FOUND.version);
    return { projectId: place.project_id, versionId: place.version_id };
  }
}

/** Throws unless the place exists, the caller has a role there, and it is enough for the action. */
function allow<P extends { role: Role | null }>(
  place: P | undefined,
  action: Action,
  notFound: string,
): P & { role: Role } {
  if (!place || place.role == null) throw new NotFound(notFound);
  const needed = ACTIONS[action];
  if (!roleAtLeast(place.role, needed)) throw new Forbidden(MEMBER_MESSAGES.needRole(needed));
  return place as P & { role: Role };
}

/** A place row that names a version (a session's row names none when the version is missing). */
function isVersionAudio(
  found: VersionAudioRow | SessionAudioRow | undefined,
): found is VersionAudioRow {
  return found?.version_id != null;
}

function projectGrant(place: ProjectPlace & { role: Role }): ProjectGrant {
  return {
    projectId: place.project_id,
    ownerId: place.owner_id,
    isPrivate: place.is_private === 1,
    role: place.role,
  };
}

function repoGrant(place: RepoPlace & { role: Role }): RepoGrant {
  return { repoId: place.repo_id, ownerId: place.owner_id, role: place.role };
}
