import { ROLE_LABELS, type Role } from './roles';

/**
 * Invitations' limits and the members API's messages, without schemas (see `roles.ts`):
 * `members.ts` adds the schemas and re-exports all of this.
 */

/** How many days an emailed invitation stays valid. */
export const INVITATION_TTL_DAYS = 7;
/** At most this many pending invitations per project or repository. */
export const MAX_PENDING_INVITATIONS = 50;
/**
 * At most this many emails one person sends per hour to addresses they type: invitations, their
 * resends and collection links emailed to recipients, counted together.
 */
export const EMAILS_PER_HOUR = 20;

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
  revokeLinksInvalid: 'revoke_links must be true or false',
  /** 403 to an invitee whose account has not proven its address; a code was just mailed. */
  confirmEmailToAccept: (email: string) =>
    `Confirm your email address to accept this invitation. We sent a 6-digit code to ${email}.`,
} as const;

/** `details.code` of the 403 that asks an invitee to confirm their address first. */
export const EMAIL_UNVERIFIED_CODE = 'email_unverified';

/** `{inviter} invited you to {project} on Takes`. */
export const invitationSubject = (inviter: string, target: string) =>
  `${inviter} invited you to ${target} on Takes`;
