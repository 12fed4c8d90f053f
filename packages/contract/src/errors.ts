import { z } from 'zod';

/**
 * Every code an error body may carry, with the HTTP status it comes with and what it means.
 * Programs branch on the code, never on the message (which is for people and may be reworded).
 * The first codes are the kinds of error: a refusal carries its kind's code unless it is one a
 * client must tell apart, which has a code of its own below (with its kind's status).
 */
export const ERROR_CODES = {
  // The kinds of error, one per status.
  invalid: { status: 400, meaning: 'The request is malformed or a value in it is not allowed.' },
  unauthenticated: { status: 401, meaning: 'Nobody is signed in, or the session or token ended.' },
  forbidden: { status: 403, meaning: 'The caller is known but may not do this.' },
  not_found: { status: 404, meaning: 'No such thing, or the caller may not know it exists.' },
  request_timeout: { status: 408, meaning: 'The request stopped arriving before it was complete.' },
  conflict: { status: 409, meaning: 'The request clashes with the current state.' },
  gone: { status: 410, meaning: 'It existed, but has expired or been used up.' },
  too_large: { status: 413, meaning: 'Over a size limit.' },
  unsupported: { status: 415, meaning: 'A kind of content Takes does not take.' },
  range_not_satisfiable: { status: 416, meaning: 'The byte range asked for is outside the file.' },
  rate_limited: { status: 429, meaning: 'Too many attempts; wait (Retry-After, when sent).' },
  internal: { status: 500, meaning: 'Something went wrong on the server.' },
  upstream_failed: {
    status: 502,
    meaning: 'A service Takes relies on (a sign-in provider) failed.',
  },
  unavailable: { status: 503, meaning: 'Not available right now (storage down, not published).' },

  // Refusals a client tells apart.
  storage_quota_exceeded: {
    status: 413,
    meaning: "The upload would take the owner's storage over their quota (details: bytes over).",
  },
  link_password_required: {
    status: 401,
    meaning: 'The link has a password and is not unlocked in this browser: ask for it.',
  },
  link_password_wrong: { status: 401, meaning: 'The password given for the link is wrong.' },
  demo_not_allowed: { status: 403, meaning: "A 'Try demo' account may not do this." },
  upload_quota_exceeded: { status: 403, meaning: "A 'Try demo' account has used its uploads." },
  email_unverified: {
    status: 403,
    meaning: 'The account has not proven its address; a code was mailed (details.email).',
  },
  link_not_found: { status: 404, meaning: 'The link is unknown or revoked, or opens nothing now.' },
  link_is_collection: {
    status: 404,
    meaning: "The key is a collection link's, not a version link's: open it as a collection.",
  },
  link_is_blind_test: {
    status: 404,
    meaning: "The key is a blind test's, not a version link's: open it as a blind test.",
  },
  stale_head: {
    status: 409,
    meaning: 'The parent commit is no longer the head of the branch: pull and try again.',
  },
  stale_order: {
    status: 409,
    meaning: "The collection's order changed since it was read: read it again.",
  },
  version_processing: {
    status: 409,
    meaning: 'The audio is still being processed: try again in a moment (Retry-After).',
  },
  link_expired: { status: 410, meaning: 'The link has expired.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const errorCodeSchema = z
  .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
  .describe('What went wrong, for programs: one of ERROR_CODES (stable; branch on it).');

/** The one error body every API route answers with. */
export const errorBodySchema = z.object({
  error: z.string().describe('A message written for people.'),
  code: errorCodeSchema,
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error body: the code for programs, the message for people, and facts when there are any. */
export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorBody {
  return details === undefined ? { error: message, code } : { error: message, code, details };
}

/** Messages of errors any route may answer, whatever its module. */
export const ERROR_MESSAGES = {
  /** 503 while the object storage (the S3 server) cannot be reached. */
  storageUnavailable: 'Storage is unavailable, please try again',
} as const;
