import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** The answer to a request whose text holds U+0000 anywhere (path, query or JSON body). */
export const NUL_MESSAGE = 'Text cannot contain the NUL character (U+0000).';

/**
 * PostgreSQL's text cannot hold U+0000: a NUL reaching a query fails it with a database error
 * (a 500). Refused at the door instead, for every route and on both dialects, so the same
 * request gets the same 400 wherever it lands.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body))
      done(new HttpError(400, NUL_MESSAGE));
    else done();
  });
}

/** Whether a string in `value` (plain objects and arrays, keys too) holds U+0000. */
export function holdsNul(value: unknown): boolean {
  // A loop with its own stack: a body may be nested far deeper than the call stack allows.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object' && isPlain(next)) {
      for (const [key, item] of Object.entries(next)) pending.push(key, item);
    }
  }
  return false;
}

/**
 * Parsed JSON, query and path objects (Fastify's have prototypes of their own, without a
 * constructor); not streams, buffers or other objects a route was given.
 */
function isPlain(value: object): boolean {
  const { constructor } = value as { constructor?: unknown };
  return constructor === undefined || constructor === Object;
}
