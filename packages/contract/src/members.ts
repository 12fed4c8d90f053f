import { z } from 'zod';

/**
 * Collaborators. A project or a repository has exactly one owner (its `owner_id`) and any number
 * of members with a lower role; people are invited by email.
 */
export const ROLES = ['owner', 'editor', 'commenter', 'viewer'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** The roles an invitation or a role change can give (ownership is only transferred). */
export const MEMBER_ROLES = ['viewer', 'commenter', 'editor'] as const;
export const memberRoleSchema = z.enum(MEMBER_ROLES);
export type MemberRole = z.infer<typeof memberRoleSchema>;

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

/** How many days an emailed invitation stays valid. */
export const INVITATION_TTL_DAYS = 7;
/** At most this many pending invitations per project or repository. */
export const MAX_PENDING_INVITATIONS = 50;
/** At most this many invitations sent by one person per hour. */
export const INVITATIONS_PER_HOUR = 20;

export const MEMBER_MESSAGES = {
  /** `{role}` is a ROLE_LABELS word. */
  needRole: (role: Role) => `You need ${ROLE_LABELS[role]} access to do this.`,
  invitationInvalid: 'This invitation is no longer valid.',
  wrongAccount: (email: string) => `This invitation was sent to ${email}.`,
  alreadyMember: (email: string) => `${email} is already a member.`,
  alreadyInvited: (email: string) => `${email} has already been invited.`,
  tooManyPending: `At most ${MAX_PENDING_INVITATIONS} invitations can be pending at once.`,
  tooManyInvitations: 'Too many invitations sent. Please try again later.',
  ownerCannotLeave: 'Transfer ownership before leaving.',
  ownerRoleFixed: "The owner's role cannot be changed. Transfer ownership instead.",
  ownerCannotBeRemoved: 'The owner cannot be removed. Transfer ownership first.',
  transferToEditor: 'Ownership can only be handed to an editor.',
  /** Repository names are unique per owner. */
  transferNameTaken: (name: string) => `The new owner already has a repository named ${name}.`,
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  emailRequired: 'Please enter an email address',
  emailInvalid: 'Please enter a valid email address',
} as const;

/** `{inviter} invited you to {project} on Takes`. */
export const invitationSubject = (inviter: string, target: string) =>
  `${inviter} invited you to ${target} on Takes`;

export const memberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  /** Display name, or null when the person has not set one. */
  name: z.string().nullable(),
  avatar_url: z.string().nullable(),
  role: roleSchema,
  /** When they joined (the project's creation for the owner). */
  joined_at: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: memberRoleSchema,
  /** When the current link was emailed. */
  sent_at: z.string(),
  expires_at: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** The 'Project members' / 'Repository members' dialog. */
export const membersResponseSchema = z.object({
  /** The caller's own role. */
  role: roleSchema,
  members: z.array(memberSchema),
  /** Pending invitations; only the owner sees them (empty for everyone else). */
  invitations: z.array(invitationSchema),
});
export type MembersResponse = z.infer<typeof membersResponseSchema>;

export const inviteBodySchema = z.object({
  email: z
    .string({ error: MEMBER_MESSAGES.emailRequired })
    .trim()
    .min(1, MEMBER_MESSAGES.emailRequired)
    .max(254, MEMBER_MESSAGES.emailInvalid)
    .pipe(z.email({ error: MEMBER_MESSAGES.emailInvalid })),
  role: memberRoleSchema.default('commenter'),
});

export const memberRoleBodySchema = z.object({ role: memberRoleSchema });
export const transferBodySchema = z.object({ user_id: z.string().min(1).max(64) });
export const invitationTokenBodySchema = z.object({ token: z.string().min(16).max(128) });

/** What `/invite/:token` shows before it is accepted. */
/** What an invitation can open. */
export const invitationKindSchema = z.enum(['project', 'repository', 'collection']);
export type InvitationKind = z.infer<typeof invitationKindSchema>;

export const invitationViewSchema = z.object({
  kind: invitationKindSchema,
  /** The project's, repository's or collection's id. */
  target_id: z.string(),
  target_name: z.string(),
  inviter_name: z.string(),
  email: z.string(),
  role: memberRoleSchema,
  expires_at: z.string(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

export const acceptInvitationResponseSchema = z.object({
  kind: invitationKindSchema,
  target_id: z.string(),
  /** The role the caller now has there ('owner' when the owner accepts: they stay the owner). */
  role: roleSchema,
});

/** A project someone else owns that the caller is a member of ('Shared with you'). */
export const ownerSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
});

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
