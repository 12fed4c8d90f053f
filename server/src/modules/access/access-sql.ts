import { sql, type Kysely } from 'kysely';
import type { Role } from '@takes/contract';
import type { Database } from '../../db/schema';

/**
 * The projects a person can see, with their role on each: `(project_id, role)`. List queries
 * (dashboard, search, stats, recent versions) join this instead of filtering by owner, so that
 * "who may see what" is written once, here.
 */
export function projectRolesOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('projects')
    .select(['projects.id as project_id', sql<Role>`'owner'`.as('role')])
    .where('projects.owner_id', '=', userId)
    .unionAll(
      db
        .selectFrom('project_members')
        .select([
          'project_members.project_id as project_id',
          sql<Role>`project_members.role`.as('role'),
        ])
        .where('project_members.user_id', '=', userId),
    );
}

/** The repositories a person can see, with their role on each: `(repo_id, role)`. */
export function repoRolesOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('repos')
    .select(['repos.id as repo_id', sql<Role>`'owner'`.as('role')])
    .where('repos.owner_id', '=', userId)
    .unionAll(
      db
        .selectFrom('repo_members')
        .select(['repo_members.repo_id as repo_id', sql<Role>`repo_members.role`.as('role')])
        .where('repo_members.user_id', '=', userId),
    );
}
