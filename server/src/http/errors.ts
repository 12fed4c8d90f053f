import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { errorBody, type ErrorBody, type ErrorCode } from '@takes/contract';
import { AppError, RateLimited, type AppErrorKind } from '../errors';

/** The one map from a kind of domain error to its HTTP status. */
export const STATUS_OF: Record<AppErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported: 415,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  unavailable: 503,
};

const KIND_OF_STATUS = new Map(
  Object.entries(STATUS_OF).map(([kind, status]) => [status, kind as AppErrorKind]),
);

/** The kind of domain error answered with a status, if one is (a library speaking HTTP). */
export function kindOfStatus(status: number): AppErrorKind | undefined {
  return KIND_OF_STATUS.get(status);
}

/**
 * The code for an answer that only has a status (an HttpError, Fastify's own refusals): the
 * kind's, else the general code of the few statuses only the HTTP layer answers with.
 */
export function codeOfStatus(status: number): ErrorCode {
  const kind = kindOfStatus(status);
  if (kind) return kind;
  if (status === 408) return 'request_timeout';
  if (status === 416) return 'range_not_satisfiable';
  return status >= 500 ? 'internal' : 'invalid';
}

/** The status and body a domain error answers with. */
export function answerOf(error: AppError): { status: number; body: ErrorBody } {
  return {
    status: STATUS_OF[error.kind],
    body: errorBody(error.code, error.message, error.details),
  };
}

/**
 * An error with an HTTP status, for the HTTP layer only (a route refusing a request's shape).
 * Services throw the domain errors of ../errors instead.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: unknown,
    readonly code: ErrorCode = codeOfStatus(statusCode),
  ) {
    super(message);
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, message);

const INTERNAL = errorBody('internal', 'Internal server error');

/** One error body for the whole API: { error, code, details? } with the right status. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      // Our schemas carry messages written for people (the product's own words), so the first one
      // is the answer; every issue with its path goes in details.
      const first = error.validation[0];
      const body = errorBody(
        'invalid',
        first?.message ?? 'Invalid request',
        error.validation.map((v) => ({ path: v.instancePath, message: v.message })),
      );
      return reply.status(400).send(body);
    }
    if (isResponseSerializationError(error)) {
      request.log.error(
        { err: error, issues: error.cause.issues },
        'response did not match its schema',
      );
      return reply.status(500).send(INTERNAL);
    }
    if (error instanceof AppError) {
      if (error instanceof RateLimited && error.retryAfterSeconds !== undefined) {
        void reply.header('retry-after', String(error.retryAfterSeconds));
      }
      const { status, body } = answerOf(error);
      return reply.status(status).send(body);
    }
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .send(errorBody(error.code, error.message, error.details));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send(INTERNAL);
    }
    // Fastify's own client errors (bad JSON, body too large, unsupported media type…).
    return reply.status(status).send(errorBody(codeOfStatus(status), error.message));
  });
}
