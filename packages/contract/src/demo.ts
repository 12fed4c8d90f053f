/** A 'Try demo' account: its own, short-lived, with a small quota (issue 12). */
export const DEMO_MAX_UPLOADS = 3;
export const DEMO_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const DEMO_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Demo accounts get addresses on this reserved domain (RFC 2606: never delivered). */
export const DEMO_EMAIL_DOMAIN = 'demo.takes.invalid';

export const DEMO_MESSAGES = {
  disabled: 'The demo is turned off on this server. Sign up for free instead.',
  uploadsUsedUp: `A demo account can upload ${DEMO_MAX_UPLOADS} files. Sign up for free to upload more.`,
  tooLarge:
    'Demo accounts can upload files up to 50MB. Sign up for free to upload files up to 500MB.',
  shareLinks:
    'Share links are not available in a demo account. Sign up for free to share your music.',
  desktopTokens:
    'The desktop app and the CLI cannot sign in to a demo account. Sign up for free to use them.',
  debug: 'The debug page is not available in a demo account.',
  invitations: 'A demo account cannot invite people. Sign up for free to work with your band.',
  accessRequests:
    'A demo account cannot ask to join a project. Sign up for free to work with a band.',
  credentials:
    'A demo account has no password or email to change. Sign up for free to keep your work.',
} as const;
