/**
 * Domain errors: what a service says went wrong, in the domain's words, with no HTTP in sight.
 * The one map from a code to an HTTP status lives in http/errors.ts. Every message is meant for
 * the person who made the request (the product's own words).
 */
export type AppErrorCode =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'unsupported'
  | 'rate_limited'
  | 'upstream_failed'
  | 'unavailable'
  | 'internal';

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** The request itself is wrong (a missing field, a bad value): 400. */
export class Invalid extends AppError {
  constructor(message: string, details?: unknown) {
    super('invalid', message, details);
  }
}
/** Nobody is signed in, or the credentials have ended: 401. */
export class Unauthenticated extends AppError {
  constructor(message = 'Unauthorized') {
    super('unauthenticated', message);
  }
}
/** Known, but not allowed to do this: 403. */
export class Forbidden extends AppError {
  constructor(message = 'Forbidden') {
    super('forbidden', message);
  }
}
/** Does not exist, or the caller may not know that it does: 404. */
export class NotFound extends AppError {
  constructor(message = 'Not found', details?: unknown) {
    super('not_found', message, details);
  }
}
/** Clashes with the current state (a stale head, a name taken, a token used): 409. */
export class Conflict extends AppError {
  constructor(message: string, details?: unknown) {
    super('conflict', message, details);
  }
}
/** Existed, but has expired or been used up: 410. */
export class Gone extends AppError {
  constructor(message: string) {
    super('gone', message);
  }
}
/** Over a size limit: 413. */
export class TooLarge extends AppError {
  constructor(message: string) {
    super('too_large', message);
  }
}
/** A kind of content Takes does not take: 415. */
export class Unsupported extends AppError {
  constructor(message: string) {
    super('unsupported', message);
  }
}
/** Too many attempts in a window: 429, optionally with when to try again. */
export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super('rate_limited', message);
  }
}
/** A service Takes relies on (a sign-in provider) failed: 502. */
export class UpstreamFailed extends AppError {
  constructor(message: string) {
    super('upstream_failed', message);
  }
}
/** Not available right now (a download not published yet, shutting down): 503. */
export class Unavailable extends AppError {
  constructor(message: string) {
    super('unavailable', message);
  }
}
/** Something that should not happen, with a message still fit for people: 500. */
export class Internal extends AppError {
  constructor(message: string) {
    super('internal', message);
  }
}
