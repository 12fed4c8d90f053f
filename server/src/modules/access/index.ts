/**
 * The access module's public face: the one policy every service asks before touching a
 * project's or a repository's objects, the action table, and the SQL pieces list queries join
 * to see only what the caller may see.
 */
export { ACTIONS, may, type Action } from '@takes/contract';
export { projectRolesOf, readableProject, readableProjectOf, repoRolesOf } from './access-sql';
export {
  AccessPolicy,
  NOT_FOUND,
  type BounceGrant,
  type BranchGrant,
  type CollectionGrant,
  type CommentGrant,
  type LinkGrant,
  type ProjectGrant,
  type RepoGrant,
  type VersionGrant,
} from './policy';
