import type { Role } from '@takes/contract';

/**
 * The one table of what each action on a project or a repository needs. Every service asks the
 * access policy with one of these names; nothing else in the server decides who may do what.
 *
 * - Viewer: listen (every quality) and download.
 * - Commenter: and comment, reply, resolve or delete their own comments.
 * - Editor: and upload versions / publish bounces, manage branches, edit tags and messages,
 *   share links, resolve and delete any comment.
 * - Owner: and rename, change privacy, delete, manage members, transfer ownership.
 */
export const ACTIONS = {
  /** See the project/repository, its branches, versions, bounces, comments and members. */
  view: 'viewer',
  /** Stream audio in any quality, read peaks. */
  listen: 'viewer',
  /** Download the original file. */
  download: 'viewer',

  /** Write a comment or a reply; resolve or delete one's own. */
  comment: 'commenter',
  /** Resolve or delete anybody's comment. */
  moderateComments: 'editor',

  /** Upload a version to a project's branch. */
  upload: 'editor',
  /** Publish bounces, commits and patches to a repository (desktop/CLI). */
  publish: 'editor',
  /** Edit a version's tags and message; delete a version or a bounce. */
  editVersions: 'editor',
  /** Create, rename and delete non-default branches; set the default branch. */
  manageBranches: 'editor',
  /** Create, change and revoke share links. */
  share: 'editor',
  /** Change a repository's cover image. */
  editCover: 'editor',

  /** Rename the project/repository or change its description. */
  rename: 'owner',
  /** 'Make public' / 'Make private' / 'List in search engines'. */
  changePrivacy: 'owner',
  /** Delete the project/repository with everything in it. */
  delete: 'owner',
  /** Invite, change roles, remove members, revoke invitations, transfer ownership. */
  manageMembers: 'owner',
} as const satisfies Record<string, Role>;

export type Action = keyof typeof ACTIONS;
