/**
 * Access requests' limits and messages, without schemas (see `roles.ts`): `access-requests.ts`
 * adds the schemas and re-exports all of this. A signed-in listener of a share link asks the
 * project's owner to join it; the owner grants a role (Viewer by default) or declines.
 */

/** A declined person may ask the same project again after this many days. */
export const ACCESS_REQUEST_RETRY_DAYS = 7;
export const ACCESS_REQUEST_NOTE_MAX_LENGTH = 500;

export const ACCESS_REQUEST_MESSAGES = {
  /** The button on a share page (the words). */
  button: 'Request access',
  sent: 'Request sent. The owner will be told.',
  alreadyOpen: 'You have already asked to join this project. The owner has been told.',
  alreadyMember: 'You are already a member of this project.',
  declinedRecently: (date: string) =>
    `The owner declined your request. You can ask again after ${date}.`,
  noteTooLong: `A note can be at most ${ACCESS_REQUEST_NOTE_MAX_LENGTH} characters.`,
  notFound: 'Access request not found',
  /** A collection item from a repository (a bounce): only projects take requests. */
  notAProject: 'Only a project’s takes can be asked for. This one is a bounce.',
  signInFirst: 'Sign in or sign up to ask the owner for access.',
} as const;

/** 'Maya asked to join Night Drive': the notification, the email and the Activity line. */
export const accessRequestLine = (person: string, project: string) =>
  `${person} asked to join ${project}`;
