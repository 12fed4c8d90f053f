import { z } from 'zod';
import {
  INVITE_LINK_DEFAULT_DAYS,
  INVITE_LINK_DEFAULT_USES,
  INVITE_LINK_MAX_DAYS,
  INVITE_LINK_MAX_USES,
  INVITE_LINK_MESSAGES,
  INVITE_LINK_MIN_USES,
  INVITE_LINK_NAME_MAX_LENGTH,
} from './invite-link-rules';
import { MEMBER_ROLES } from './roles';
import { roleSchema } from './members';

export * from './invite-link-rules';

/** Invite links: a project's owner pastes one in a group chat; each use makes a member. */
export const createInviteLinkBodySchema = z.object({
  /** What Activity calls joins through it ('Maya joined as Editor through the invite link …'). */
  name: z
    .string({ error: 'Name must be text' })
    .trim()
    .max(INVITE_LINK_NAME_MAX_LENGTH, INVITE_LINK_MESSAGES.nameTooLong)
    .optional(),
  role: z.enum(MEMBER_ROLES, { error: INVITE_LINK_MESSAGES.roleInvalid }).default('viewer'),
  max_uses: z
    .number({ error: INVITE_LINK_MESSAGES.usesInvalid })
    .int(INVITE_LINK_MESSAGES.usesInvalid)
    .min(INVITE_LINK_MIN_USES, INVITE_LINK_MESSAGES.usesInvalid)
    .max(INVITE_LINK_MAX_USES, INVITE_LINK_MESSAGES.usesInvalid)
    .default(INVITE_LINK_DEFAULT_USES),
  expires_in_days: z
    .number({ error: INVITE_LINK_MESSAGES.daysInvalid })
    .int(INVITE_LINK_MESSAGES.daysInvalid)
    .min(1, INVITE_LINK_MESSAGES.daysInvalid)
    .max(INVITE_LINK_MAX_DAYS, INVITE_LINK_MESSAGES.daysInvalid)
    .default(INVITE_LINK_DEFAULT_DAYS),
});
export type CreateInviteLinkBody = z.input<typeof createInviteLinkBodySchema>;

export const inviteLinkSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(MEMBER_ROLES),
  max_uses: z.number().int(),
  /** Joins so far. */
  uses: z.number().int(),
  uses_left: z.number().int(),
  created_at: z.string(),
  expires_at: z.string(),
  /** The address to paste: `{PUBLIC_URL}/join/{key}`. */
  url: z.string(),
});
export type InviteLink = z.infer<typeof inviteLinkSchema>;

/** A project's live invite links (not revoked, not expired, uses left), newest first. */
export const inviteLinksResponseSchema = z.object({ links: z.array(inviteLinkSchema) });
export type InviteLinksResponse = z.infer<typeof inviteLinksResponseSchema>;

/** The link's key travels in the body, never in an API URL (the page's URL holds it). */
export const inviteLinkKeyBodySchema = z.object({
  key: z.string({ error: INVITE_LINK_MESSAGES.invalid }).min(16).max(64),
});

/** What `/join/:key` shows before joining. */
export const inviteLinkViewSchema = z.object({
  project_id: z.string(),
  project_name: z.string(),
  inviter_name: z.string(),
  role: z.enum(MEMBER_ROLES),
  expires_at: z.string(),
});
export type InviteLinkView = z.infer<typeof inviteLinkViewSchema>;

export const joinInviteLinkResponseSchema = z.object({
  project_id: z.string(),
  /** The caller's role now: the link's, or the one they already had (nothing changes then). */
  role: roleSchema,
  /** False when the caller was already in (no use of the link was taken). */
  joined: z.boolean(),
});
export type JoinInviteLinkResponse = z.infer<typeof joinInviteLinkResponseSchema>;
