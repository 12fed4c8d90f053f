import { ROLE_LABELS, type MemberRole } from './roles';

/**
 * Invite links' limits and messages, without schemas (see `roles.ts`): `invite-links.ts` adds the
 * schemas and re-exports all of this. An invite link is pasted in a group chat: whoever opens it
 * signed in (with a proven address) joins the project at its role, until its uses run out, it
 * expires or the owner revokes it.
 */

/** Uses one link may give: 1 to 50 (default 10). */
export const INVITE_LINK_MIN_USES = 1;
export const INVITE_LINK_MAX_USES = 50;
export const INVITE_LINK_DEFAULT_USES = 10;
/** Days one link may live: 1 to 30 (default 7). */
export const INVITE_LINK_MAX_DAYS = 30;
export const INVITE_LINK_DEFAULT_DAYS = 7;
/** Live links (not revoked, not expired, uses left) one project may have at once. */
export const MAX_LIVE_INVITE_LINKS = 20;
export const INVITE_LINK_NAME_MAX_LENGTH = 80;
/** The name a link gets when none is given. */
export const INVITE_LINK_DEFAULT_NAME = 'Invite link';

export const INVITE_LINK_MESSAGES = {
  invalid: 'This invite link is no longer valid.',
  notFound: 'Invite link not found',
  nameTooLong: `Names can be at most ${INVITE_LINK_NAME_MAX_LENGTH} characters`,
  usesInvalid: `Uses must be a whole number from ${INVITE_LINK_MIN_USES} to ${INVITE_LINK_MAX_USES}.`,
  daysInvalid: `Expiry must be a whole number of days from 1 to ${INVITE_LINK_MAX_DAYS}.`,
  roleInvalid: 'Role must be Viewer, Commenter or Editor.',
  tooManyLive: `At most ${MAX_LIVE_INVITE_LINKS} invite links can be live at once. Revoke one first.`,
  /** 403 to a joiner whose account has not proven its address; a code was just mailed. */
  confirmEmailToJoin: (email: string) =>
    `Confirm your email address to join through this link. We sent a 6-digit code to ${email}.`,
} as const;

/** 'Joins as Editor · 3 of 5 uses left'. */
export const inviteLinkUsesLeft = (usesLeft: number, maxUses: number) =>
  `${usesLeft} of ${maxUses} ${maxUses === 1 ? 'use' : 'uses'} left`;

/** What an activity line and the join page call the role an invite link gives. */
export const inviteLinkRoleLabel = (role: MemberRole) => ROLE_LABELS[role];
