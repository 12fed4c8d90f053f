import type { VersionsTable } from '../../db/schema';

/** What a search finds: up to 50 each of projects, branches and versions. */
export interface SearchHits {
  projects: { id: string; name: string; description: string | null; updated_at: string }[];
  branches: { id: string; name: string; project_id: string; project_name: string }[];
  versions: VersionHit[];
}

/** What a version hit of a search shows. */
export type VersionHit = Pick<
  VersionsTable,
  'id' | 'project_id' | 'branch_id' | 'version_number' | 'message' | 'tags' | 'created_at'
> & { project_name: string; branch_name: string };

/**
 * The person's readable versions (by the projects' kept counts) up to which a search reads all of
 * them instead of walking the word's matches: about a microsecond a row, so at most about a
 * millisecond, where the walk over a common word of the instance could read every match.
 */
export const OWN_ROWS_AT_MOST = 1000;
/** The readable projects past which the person's rows are not counted (the walk is taken). */
export const OWN_PROJECTS_AT_MOST = 50;

/** Likes a user's words literally: % and _ match themselves. */
export function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
const newest = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : -1;

/**
 * The hits in the order search answers them: projects most recently updated first, branches by
 * name, versions newest first.
 */
export function sortHits(hits: SearchHits): SearchHits {
  return {
    projects: hits.projects.sort((a, b) =>
      a.updated_at === b.updated_at ? 0 : a.updated_at < b.updated_at ? 1 : -1,
    ),
    branches: hits.branches.sort(byName),
    versions: hits.versions.sort(newest),
  };
}
