/**
 * File requests ('Upload link'): limits and words without schemas, so the guest's page
 * (`/upload/:key`) and the team's dialog load without zod. `upload-links.ts` adds the schemas and
 * re-exports all of this.
 */
import { MAX_UPLOAD_BYTES } from './project-limits';

/** Files a link takes unless its maker says otherwise, and the most it may take. */
export const UPLOAD_LINK_DEFAULT_FILES = 10;
export const UPLOAD_LINK_MAX_FILES = 50;
/** Bytes a link takes in all unless its maker says otherwise (2 GB), and the most (10 GB). */
export const UPLOAD_LINK_DEFAULT_BYTES = 2 * 1024 * 1024 * 1024;
export const UPLOAD_LINK_MAX_BYTES = 10 * 1024 * 1024 * 1024;
/** One file is held to the upload page's limit (500 MB) too. */
export const GUEST_FILE_MAX_BYTES = MAX_UPLOAD_BYTES;
/** How long a link lasts unless its maker says otherwise, and the longest it may. */
export const UPLOAD_LINK_DEFAULT_DAYS = 7;
export const UPLOAD_LINK_MAX_DAYS = 90;
export const UPLOAD_LINK_NAME_MAX = 100;
export const UPLOAD_LINK_MESSAGE_MAX = 1000;
export const GUEST_NAME_MAX = 80;
export const GUEST_EMAIL_MAX = 254;
/** Files one address may start sending per hour (all links), and one link from all addresses. */
export const GUEST_UPLOADS_PER_ADDRESS_HOUR = 20;
export const GUEST_UPLOADS_PER_LINK_HOUR = 60;
/** Where a guest's resumable (tus) uploads go; an upload is then `${GUEST_TUS_PATH}/<id>`. */
export const GUEST_TUS_PATH = '/api/guest-uploads';

/** The product's words for file requests. */
export const UPLOAD_LINK_WORDS = {
  uploadLink: 'Upload link',
  sentBy: (name: string, link: string) => `Sent by ${name} via ${link}`,
  addAsVersion: (n: number) => `Add as Version ${n}`,
  /** A repository's link: the file becomes a bounce of its branch (as 'Publish bounce' does). */
  addAsBounce: 'Add as bounce',
  decline: 'Decline',
  pending: 'Sent by guests',
  thanks: (name: string) => `Thank you, ${name}! Your files were sent.`,
} as const;

export const UPLOAD_LINK_MESSAGES = {
  nameRequired: 'Please give the link a name',
  nameTooLong: `A link name can be at most ${UPLOAD_LINK_NAME_MAX} characters`,
  messageTooLong: `The message can be at most ${UPLOAD_LINK_MESSAGE_MAX} characters`,
  expiryPast: 'The expiry must be in the future',
  expiryTooFar: `An upload link can last at most ${UPLOAD_LINK_MAX_DAYS} days`,
  filesRange: `An upload link takes 1 to ${UPLOAD_LINK_MAX_FILES} files`,
  bytesRange: 'An upload link takes between 1 MB and 10 GB in all',
  linkNotFound: 'Link not found',
  linkExpired: 'This link has expired',
  guestNameRequired: 'Please enter your name',
  guestNameTooLong: `Your name can be at most ${GUEST_NAME_MAX} characters`,
  guestEmailInvalid: 'Please enter a valid email address, or leave it empty',
  filesUsedUp: 'This link has taken all the files it can. Ask for a new link to send more.',
  bytesUsedUp: 'This file is larger than what this link can still take.',
  tooManyPerHour: 'Too many files sent for now. Please wait a while and try again.',
  fileNotFound: 'File not found',
  stillProcessing: 'This file is still being processed. Please try again in a moment.',
  failedCannotAccept:
    'This file could not be processed, so it cannot be added. Decline it instead.',
} as const;

/** 'Sent by Sam via Bass takes': the line a pending file shows the team. */
export function sentByLine(file: { guest_name: string; link_name: string }): string {
  return UPLOAD_LINK_WORDS.sentBy(file.guest_name, file.link_name);
}
