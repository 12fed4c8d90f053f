import { z } from 'zod';
import { MEMBER_MESSAGES } from './member-limits';
import { MEMBER_ROLES, ROLES } from './roles';

export * from './roles';
export * from './member-limits';

/**
 * Collaborators. A project or a repository has exactly one owner (its `owner_id`) and any number
 * of members with a lower role; people are invited by email.
 */
export const roleSchema = z.enum(ROLES);
export const memberRoleSchema = z.enum(MEMBER_ROLES);

export const memberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  /** Display name, or null when the person has not set one. */
  name: z.string().nullable(),
  avatar_url: z.string().nullable(),
  role: roleSchema,
  /** When they joined (the project's creation for the owner). */
  joined_at: z.string(),
  /**
   * How many share links they made here that still open (not revoked, not expired): for a caller
   * who may manage members, so the removal dialog can offer to revoke them; absent otherwise.
   */
  links_made: z.number().int().nonnegative().optional(),
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

/** Removing a member: whether the share links they made go too ('true' unless 'false'). */
export const removeMemberQuerySchema = z.object({
  revoke_links: z
    .enum(['true', 'false'], { error: MEMBER_MESSAGES.revokeLinksInvalid })
    .default('true'),
});
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
