import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import type { ErrorBody } from '@takes/contract';
import { AppError, RateLimited, type AppErrorCode } from '../errors';

/** The one map from a domain error to its HTTP status. */
export const STATUS_OF: Record<AppErrorCode, number> = {
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
  ) {
    super(message);
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, message);

/** One error body for the whole API: { error, details? } with the right status. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      // Our schemas carry messages written for people (the product's own words), so the first one
      // is the answer; every issue with its path goes in details.
      const first = error.validation[0];
      const body: ErrorBody = {
        error: first?.message ?? 'Invalid request',
        details: error.validation.map((v) => ({ path: v.instancePath, message: v.message })),
      };
      return reply.status(400).send(body);
    }
    if (isResponseSerializationError(error)) {
      request.log.error(
        { err: error, issues: error.cause.issues },
        'response did not match its schema',
      );
      return reply.status(500).send({ error: 'Internal server error' } satisfies ErrorBody);
    }
    if (error instanceof AppError) {
      if (error instanceof RateLimited && error.retryAfterSeconds !== undefined) {
        void reply.header('retry-after', String(error.retryAfterSeconds));
      }
      const body: ErrorBody =
        error.details === undefined
          ? { error: error.message }
          : { error: error.message, details: error.details };
      return reply.status(STATUS_OF[error.code]).send(body);
    }
    if (error instanceof HttpError) {
      const body: ErrorBody =
        error.details === undefined
          ? { error: error.message }
          : { error: error.message, details: error.details };
      return reply.status(error.statusCode).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ error: 'Internal server error' } satisfies ErrorBody);
    }
    // Fastify's own client errors (bad JSON, body too large, unsupported media type…).
    return reply.status(status).send({ error: error.message } satisfies ErrorBody);
  });
}
