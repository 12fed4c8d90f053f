import type { ERROR_CODES, ErrorCode } from '@takes/contract';

/**
 * Domain errors: what a service says went wrong, in the domain's words, with no HTTP in sight.
 * The one map from a kind to an HTTP status lives in http/errors.ts. Every message is meant for
 * the person who made the request (the product's own words); the code is for programs: the
 * kind's own, or a specific one from the contract's ERROR_CODES for a refusal a client tells
 * apart (`new Unauthenticated(message, { code: 'link_password_required' })`).
 */
export type AppErrorKind =
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

type StatusOfCode<C extends ErrorCode> = (typeof ERROR_CODES)[C]['status'];

/** The codes an error of kind K may carry: its own, or a specific one with the same status. */
export type CodeOf<K extends AppErrorKind> = {
  [C in ErrorCode]: StatusOfCode<C> extends StatusOfCode<K> ? C : never;
}[ErrorCode];

export interface AppErrorOptions<K extends AppErrorKind> {
  /** A specific code for a refusal clients tell apart; the kind's own code otherwise. */
  code?: CodeOf<K>;
  /** Facts for programs, answered as the body's `details`. */
  details?: unknown;
}

export class AppError extends Error {
  override name = 'AppError';
  /** The code the error body carries: `code` when given (the subclasses check it fits), else the kind. */
  readonly code: ErrorCode;
  constructor(
    readonly kind: AppErrorKind,
    message: string,
    readonly details?: unknown,
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? kind;
  }
}

/** The request itself is wrong (a missing field, a bad value): 400. */
export class Invalid extends AppError {
  constructor(message: string, options: AppErrorOptions<'invalid'> = {}) {
    super('invalid', message, options.details, options.code);
  }
}
/** Nobody is signed in, or the credentials have ended: 401. */
export class Unauthenticated extends AppError {
  constructor(message = 'Unauthorized', options: AppErrorOptions<'unauthenticated'> = {}) {
    super('unauthenticated', message, options.details, options.code);
  }
}
/** Known, but not allowed to do this: 403. */
export class Forbidden extends AppError {
  constructor(message = 'Forbidden', options: AppErrorOptions<'forbidden'> = {}) {
    super('forbidden', message, options.details, options.code);
  }
}
/** Does not exist, or the caller may not know that it does: 404. */
export class NotFound extends AppError {
  constructor(message = 'Not found', options: AppErrorOptions<'not_found'> = {}) {
    super('not_found', message, options.details, options.code);
  }
}
/** Clashes with the current state (a stale head, a name taken, a token used): 409. */
export class Conflict extends AppError {
  constructor(message: string, options: AppErrorOptions<'conflict'> = {}) {
    super('conflict', message, options.details, options.code);
  }
}
/** Existed, but has expired or been used up: 410. */
export class Gone extends AppError {
  constructor(message: string, options: AppErrorOptions<'gone'> = {}) {
    super('gone', message, options.details, options.code);
  }
}
/** Over a size limit: 413. */
export class TooLarge extends AppError {
  constructor(message: string, options: AppErrorOptions<'too_large'> = {}) {
    super('too_large', message, options.details, options.code);
  }
}
/** A kind of content Takes does not take: 415. */
export class Unsupported extends AppError {
  constructor(message: string, options: AppErrorOptions<'unsupported'> = {}) {
    super('unsupported', message, options.details, options.code);
  }
}
/** Too many attempts in a window: 429, optionally with when to try again. */
export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    options: AppErrorOptions<'rate_limited'> = {},
  ) {
    super('rate_limited', message, options.details, options.code);
  }
}
/** A service Takes relies on (a sign-in provider) failed: 502. */
export class UpstreamFailed extends AppError {
  constructor(message: string, options: AppErrorOptions<'upstream_failed'> = {}) {
    super('upstream_failed', message, options.details, options.code);
  }
}
/** Not available right now (a download not published yet, shutting down): 503. */
export class Unavailable extends AppError {
  constructor(message: string, options: AppErrorOptions<'unavailable'> = {}) {
    super('unavailable', message, options.details, options.code);
  }
}
/** Something that should not happen, with a message still fit for people: 500. */
export class Internal extends AppError {
  constructor(message: string, options: AppErrorOptions<'internal'> = {}) {
    super('internal', message, options.details, options.code);
  }
}
