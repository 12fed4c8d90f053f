import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import type { ErrorBody } from '@takes/contract';

/** An error whose message is meant for the person who made the request. */
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
      // Our schemas carry messages written for people (the spec's words), so the first one
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
