import { sql, type Kysely } from 'kysely';
import type { Role } from '@takes/contract';
import { dialectOf } from '../../db/dialect-sql';
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

/**
 * True when the person may read the project `projectId` (a column of the row being walked): its
 * owner or a member. For walks over the newest rows of the instance that stop at their 50th
 * readable row: the check runs per row, in walk order, by the project's primary key. PostgreSQL
 * would otherwise turn it into a join over all the person's projects (hashed, so the walk's
 * order is lost and every row of the window is read); `offset 0` keeps it a per-row check.
 */
export function readableProjectOf(db: Kysely<Database>, userId: string, projectId: string) {
  const fence = dialectOf(db as unknown as Kysely<unknown>) === 'postgres' ? sql` offset 0` : sql``;
  return sql<boolean>`exists (select 1 from projects rp where rp.id = ${sql.ref(projectId)}
    and ${readableProject(userId, 'rp')}${fence})`;
}

/**
 * True when the person owns the project row `alias` or is a member of it: the rule of
 * `projectRolesOf` as a condition on a projects row already in the query.
 */
export function readableProject(userId: string, alias: string) {
  return sql<boolean>`(${sql.ref(`${alias}.owner_id`)} = ${userId} or ${sql.ref(`${alias}.id`)} in (select project_id from project_members where user_id = ${userId}))`;
}
