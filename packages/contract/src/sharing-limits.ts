/**
 * Share links' limits and messages, without schemas (see `roles.ts`): `sharing.ts` adds the
 * schemas and re-exports all of this.
 */
/** Link keys: random letters and digits; 22 of them is about 130 bits, too many to guess. */
export const SHARE_HASH_LENGTH = 22;
export const COMMENT_MAX_LENGTH = 5000;
export const VISITOR_NAME_MAX_LENGTH = 80;

export const SHARE_MESSAGES = {
  linkNotFound: 'Link not found',
  linkExpired: 'This link has expired',
  versionNotFound: 'Version not found',
  downloadNotAllowed: 'Downloads are not allowed for this link',
  commentRequired: 'Comment text is required',
  commentTooLong: `Comments can be at most ${COMMENT_MAX_LENGTH} characters`,
  nameRequired: 'Please set your name before commenting',
  nameTooLong: `Names can be at most ${VISITOR_NAME_MAX_LENGTH} characters`,
  notAuthenticated: 'Not authenticated',
  versionIdRequired: 'Version ID is required',
  stillProcessing: 'This version is still being processed. Please try again in a moment.',
  commentNotFound: 'Comment not found',
} as const;

/** What link passwords say (version and collection links alike). */
export const LINK_PASSWORD_MESSAGES = {
  tooShort: 'A link password must be at least 8 characters.',
  tooLong: 'A link password can be at most 200 characters.',
  needsPassword: 'This link needs a password',
  wrongPassword: 'Wrong password',
} as const;
export const LINK_PASSWORD_MIN = 8;
export const LINK_PASSWORD_MAX = 200;
