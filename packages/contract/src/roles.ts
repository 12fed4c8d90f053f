/**
 * Roles and what each may do, without schemas: the words and rules a page needs (the share page
 * among them) load without zod. `members.ts` adds the schemas and re-exports all of this.
 */
export const ROLES = ['owner', 'editor', 'commenter', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an invitation or a role change can give (ownership is only transferred). */
export const MEMBER_ROLES = ['viewer', 'commenter', 'editor'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The UI words for each role ('Owner', 'Editor', 'Commenter', 'Viewer'). */
export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  editor: 'Editor',
  commenter: 'Commenter',
  viewer: 'Viewer',
};

/** Higher is more: a role may do everything a lower one may. */
export const ROLE_RANK: Record<Role, number> = { viewer: 1, commenter: 2, editor: 3, owner: 4 };

export const roleAtLeast = (role: Role | null | undefined, needed: Role): boolean =>
  role != null && ROLE_RANK[role] >= ROLE_RANK[needed];

/**
 * The one table of what each action on a project or a repository needs. The server's access policy
 * asks it for every request; the web app reads it to hide what a role cannot use. Every service asks the
 * policy with one of these names; nothing else in the server decides who may do what.
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
  /** Set a version's review status ('In review', 'Changes requested', 'Approved'). */
  review: 'editor',
  /** Create, rename and delete non-default branches; set the default branch. */
  manageBranches: 'editor',
  /** Create, change and revoke share links. */
  share: 'editor',
  /** Change a repository's or a collection's cover image. */
  editCover: 'editor',
  /** Add, remove and reorder a collection's items (from projects the member may listen to). */
  editItems: 'editor',

  /** Rename the project/repository or change its description. */
  rename: 'owner',
  /** 'Make public' / 'Make private' / 'List in search engines'. */
  changePrivacy: 'owner',
  /** Delete the project/repository with everything in it. */
  delete: 'owner',
  /** Invite, change roles, remove members, revoke invitations, transfer ownership. */
  manageMembers: 'owner',
  /**
   * Create, change and revoke a collection's links. The owner's alone: a link plays every item
   * the owner may read, which can be more than an editor of the collection may.
   */
  shareCollection: 'owner',
} as const satisfies Record<string, Role>;

export type Action = keyof typeof ACTIONS;

/** Whether a role may do an action (the web app hides what the caller cannot use). */
export const may = (role: Role | null | undefined, action: Action): boolean =>
  roleAtLeast(role, ACTIONS[action]);
