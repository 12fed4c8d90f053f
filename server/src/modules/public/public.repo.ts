import type { Kysely } from 'kysely';
import type { BranchesTable, Database, ProjectsTable, VersionsTable } from '../../db/schema';

/** What a Public project's page reads of one version (never its original's name or tags). */
export type PublicVersionRow = Pick<
  VersionsTable,
  'id' | 'branch_id' | 'version_number' | 'message' | 'created_at' | 'status' | 'waveform'
>;

/** What the public stream reads of a version: its audio columns and whether it may be indexed. */
export type PublicAudioRow = Pick<
  VersionsTable,
  'id' | 'status' | 'renditions' | 'original_key' | 'original_format' | 'original_size'
> & { listed: number };

/**
 * SQL for Public projects' read-only pages. Rows are read by id once the access policy has said
 * the project is Public (`publicProject` / `publicVersion`), on every request: nothing is cached,
 * so 'Make private' takes effect on the next one.
 */
export class PublicRepo {
  constructor(private readonly db: Kysely<Database>) {}

  project(projectId: string): Promise<
    | (Pick<ProjectsTable, 'id' | 'name' | 'description' | 'listed' | 'updated_at'> & {
        owner_user_name: string;
        owner_display_name: string | null;
      })
    | undefined
  > {
    return this.db
      .selectFrom('projects')
      .innerJoin('users', 'users.id', 'projects.owner_id')
      .leftJoin('profiles', 'profiles.user_id', 'projects.owner_id')
      .select([
        'projects.id',
        'projects.name',
        'projects.description',
        'projects.listed',
        'projects.updated_at',
        'users.name as owner_user_name',
        'profiles.display_name as owner_display_name',
      ])
      .where('projects.id', '=', projectId)
      .executeTakeFirst();
  }

  /** The project's branches, the default first, then by name. */
  branches(projectId: string): Promise<Pick<BranchesTable, 'id' | 'name' | 'is_default'>[]> {
    return this.db
      .selectFrom('branches')
      .select(['id', 'name', 'is_default'])
      .where('project_id', '=', projectId)
      .orderBy('is_default', 'desc')
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /** The versions of these branches, newest number first. */
  versions(branchIds: string[]): Promise<PublicVersionRow[]> {
    if (branchIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('versions')
      .select(['id', 'branch_id', 'version_number', 'message', 'created_at', 'status', 'waveform'])
      .where('branch_id', 'in', branchIds)
      .orderBy('version_number', 'desc')
      .execute();
  }

  version(versionId: string): Promise<PublicAudioRow | undefined> {
    return this.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .select([
        'versions.id',
        'versions.status',
        'versions.renditions',
        'versions.original_key',
        'versions.original_format',
        'versions.original_size',
        'projects.listed',
      ])
      .where('versions.id', '=', versionId)
      .executeTakeFirst();
  }

  listed(projectId: string): Promise<{ listed: number } | undefined> {
    return this.db
      .selectFrom('projects')
      .select('listed')
      .where('id', '=', projectId)
      .executeTakeFirst();
  }
}
