import { sql, type Kysely } from 'kysely';
import type { Role } from '@takes/contract';
import { CompiledOnce } from '../../db/compiled-once';
import type { Database, VersionStatus } from '../../db/schema';
import { listenerName } from '../people';

/** Where a project's object sits and the caller's role there (null: not a member). */
export interface ProjectPlace {
  project_id: string;
  owner_id: string;
  is_private: number;
  role: Role | null;
}

/** A version's place with the columns that say which audio to stream. */
export type VersionAudioRow = ProjectPlace & {
  version_id: string;
  branch_id: string;
  renditions: string;
  original_key: string | null;
  original_format: string | null;
  original_size: number | null;
  status: VersionStatus;
};

/** A cookie session's row with a version's audio place for its user (all null: no such version). */
export type SessionAudioRow = {
  user_id: string;
  email: string;
  expires_at: string | Date;
} & { [K in keyof VersionAudioRow]: VersionAudioRow[K] | null };

export interface RepoPlace {
  repo_id: string;
  owner_id: string;
  role: Role | null;
}

export interface CollectionPlace {
  collection_id: string;
  owner_id: string;
  role: Role | null;
}

/**
 * One query per kind of object: the object's project (or repository) and the caller's role on
 * it, read fresh on every request (a removed member loses access on their next request).
 */
export class AccessRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private projectRole(userId: string) {
    return sql<Role | null>`case when projects.owner_id = ${userId} then 'owner' else project_members.role end`;
  }

  private repoRole(userId: string) {
    return sql<Role | null>`case when repos.owner_id = ${userId} then 'owner' else repo_members.role end`;
  }

  /**
   * The name a person goes by (the person presenter's `listenerName`), for what they do through
   * a link as a visitor.
   */
  async accountName(userId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select(['profiles.display_name', 'users.name as user_name'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    // Other listeners read it: the name they chose, never their address.
    return row ? listenerName(row) : null;
  }

  project(userId: string, projectId: string): Promise<ProjectPlace | undefined> {
    return this.db
      .selectFrom('projects')
      .leftJoin('project_members', (j) =>
        j
          .onRef('project_members.project_id', '=', 'projects.id')
          .on('project_members.user_id', '=', userId),
      )
      .select([
        'projects.id as project_id',
        'projects.owner_id',
        'projects.is_private',
        this.projectRole(userId).as('role'),
      ])
      .where('projects.id', '=', projectId)
      .executeTakeFirst();
  }

  version(
    userId: string,
    versionId: string,
  ): Promise<(ProjectPlace & { version_id: string; branch_id: string }) | undefined> {
    // Every request on a version makes this check: compiled once (see CompiledOnce).
    this.versionPlace ??= new CompiledOnce(this.db as unknown as Kysely<never>, 2, (u, v) =>
      this.versionQuery(u, v),
    );
    return this.versionPlace.executeTakeFirst(userId, versionId);
  }

  private versionPlace:
    | CompiledOnce<[string, string], ProjectPlace & { version_id: string; branch_id: string }>
    | undefined;

  /**
   * The version's place and role with the columns that say which audio to stream, in the same
   * query: a Range request of a player is checked and found in one statement, without reading
   * the version's wide columns (waveform, metadata).
   */
  versionAudio(userId: string, versionId: string) {
    const build = (u: string, v: string) =>
      this.versionQuery(u, v).select([
        'versions.renditions',
        'versions.original_key',
        'versions.original_format',
        'versions.original_size',
        'versions.status',
      ]);
    this.versionAudioPlace ??= new CompiledOnce(this.db as unknown as Kysely<never>, 2, build);
    return this.versionAudioPlace.executeTakeFirst(userId, versionId);
  }

  private versionAudioPlace: CompiledOnce<[string, string], VersionAudioRow> | undefined;

  /**
   * A cookie session with its user and, for that user, `versionAudio` of a version: one statement
   * for a player's Range request, which otherwise reads the session and then the version. No row:
   * no such session. A row without `version_id`: no such version.
   */
  sessionVersionAudio(token: string, versionId: string): Promise<SessionAudioRow | undefined> {
    this.sessionAudioPlace ??= new CompiledOnce(
      this.db as unknown as Kysely<never>,
      2,
      (t: string, v: string) =>
        this.db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .leftJoin('versions', (j) => j.on('versions.id', '=', v))
          .leftJoin('projects', 'projects.id', 'versions.project_id')
          .leftJoin('project_members', (j) =>
            j
              .onRef('project_members.project_id', '=', 'projects.id')
              .onRef('project_members.user_id', '=', 'sessions.user_id'),
          )
          .select([
            'sessions.user_id',
            'users.email',
            'sessions.expires_at',
            'versions.id as version_id',
            'versions.branch_id',
            'projects.id as project_id',
            'projects.owner_id',
            'projects.is_private',
            sql<Role | null>`case when projects.owner_id = sessions.user_id then 'owner' else project_members.role end`.as(
              'role',
            ),
            'versions.renditions',
            'versions.original_key',
            'versions.original_format',
            'versions.original_size',
            'versions.status',
          ])
          .where('sessions.token', '=', t),
    );
    return this.sessionAudioPlace.executeTakeFirst(token, versionId);
  }

  private sessionAudioPlace: CompiledOnce<[string, string], SessionAudioRow> | undefined;

  private versionQuery(userId: string, versionId: string) {
    return this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .leftJoin('project_members', (j) =>
        j
          .onRef('project_members.project_id', '=', 'projects.id')
          .on('project_members.user_id', '=', userId),
      )
      .select([
        'versions.id as version_id',
        'versions.branch_id',
        'projects.id as project_id',
        'projects.owner_id',
        'projects.is_private',
        this.projectRole(userId).as('role'),
      ])
      .where('versions.id', '=', versionId);
  }

  branch(
    userId: string,
    branchId: string,
  ): Promise<(ProjectPlace & { branch_id: string }) | undefined> {
    return this.db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .leftJoin('project_members', (j) =>
        j
          .onRef('project_members.project_id', '=', 'projects.id')
          .on('project_members.user_id', '=', userId),
      )
      .select([
        'branches.id as branch_id',
        'projects.id as project_id',
        'projects.owner_id',
        'projects.is_private',
        this.projectRole(userId).as('role'),
      ])
      .where('branches.id', '=', branchId)
      .executeTakeFirst();
  }

  comment(
    userId: string,
    commentId: string,
  ): Promise<
    | (ProjectPlace & { comment_id: string; version_id: string; author_id: string | null })
    | undefined
  > {
    return this.db
      .selectFrom('comments')
      .innerJoin('versions', 'versions.id', 'comments.version_id')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .leftJoin('project_members', (j) =>
        j
          .onRef('project_members.project_id', '=', 'projects.id')
          .on('project_members.user_id', '=', userId),
      )
      .select([
        'comments.id as comment_id',
        'comments.version_id',
        'comments.user_id as author_id',
        'projects.id as project_id',
        'projects.owner_id',
        'projects.is_private',
        this.projectRole(userId).as('role'),
      ])
      .where('comments.id', '=', commentId)
      .executeTakeFirst();
  }

  link(
    userId: string,
    linkId: string,
  ): Promise<(ProjectPlace & { link_id: string; version_id: string }) | undefined> {
    return this.db
      .selectFrom('links')
      .innerJoin('projects', 'projects.id', 'links.project_id')
      .leftJoin('project_members', (j) =>
        j
          .onRef('project_members.project_id', '=', 'projects.id')
          .on('project_members.user_id', '=', userId),
      )
      .select([
        'links.id as link_id',
        'links.version_id',
        'projects.id as project_id',
        'projects.owner_id',
        'projects.is_private',
        this.projectRole(userId).as('role'),
      ])
      .where('links.id', '=', linkId)
      .executeTakeFirst();
  }

  repo(userId: string, repoId: string): Promise<RepoPlace | undefined> {
    return this.db
      .selectFrom('repos')
      .leftJoin('repo_members', (j) =>
        j.onRef('repo_members.repo_id', '=', 'repos.id').on('repo_members.user_id', '=', userId),
      )
      .select(['repos.id as repo_id', 'repos.owner_id', this.repoRole(userId).as('role')])
      .where('repos.id', '=', repoId)
      .executeTakeFirst();
  }

  collection(userId: string, collectionId: string): Promise<CollectionPlace | undefined> {
    return this.db
      .selectFrom('collections')
      .leftJoin('collection_members', (j) =>
        j
          .onRef('collection_members.collection_id', '=', 'collections.id')
          .on('collection_members.user_id', '=', userId),
      )
      .select([
        'collections.id as collection_id',
        'collections.owner_id',
        sql<Role | null>`case when collections.owner_id = ${userId} then 'owner' else collection_members.role end`.as(
          'role',
        ),
      ])
      .where('collections.id', '=', collectionId)
      .executeTakeFirst();
  }

  bounce(
    userId: string,
    bounceId: string,
  ): Promise<(RepoPlace & { bounce_id: string }) | undefined> {
    return this.db
      .selectFrom('bounces')
      .innerJoin('repos', 'repos.id', 'bounces.repo_id')
      .leftJoin('repo_members', (j) =>
        j.onRef('repo_members.repo_id', '=', 'repos.id').on('repo_members.user_id', '=', userId),
      )
      .select([
        'bounces.id as bounce_id',
        'repos.id as repo_id',
        'repos.owner_id',
        this.repoRole(userId).as('role'),
      ])
      .where('bounces.id', '=', bounceId)
      .executeTakeFirst();
  }

  /** A public project's place, for signed-out visitors (undefined when private or missing). */
  publicProject(projectId: string): Promise<{ project_id: string } | undefined> {
    return this.db
      .selectFrom('projects')
      .select('projects.id as project_id')
      .where('projects.id', '=', projectId)
      .where('projects.is_private', '=', 0)
      .executeTakeFirst();
  }

  publicVersion(
    versionId: string,
  ): Promise<{ project_id: string; version_id: string } | undefined> {
    return this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .select(['versions.id as version_id', 'projects.id as project_id'])
      .where('versions.id', '=', versionId)
      .where('projects.is_private', '=', 0)
      .executeTakeFirst();
  }
}
