import { APIError } from 'better-auth/api';
import { AUTH_MESSAGES } from '@takes/contract';
import { AppError, type AppErrorCode } from '../../errors';
import { HttpError } from '../../http/errors';

/** better-auth speaks HTTP statuses; these are the ones with a domain error of their own. */
const CODE_OF_STATUS: Readonly<Partial<Record<number, AppErrorCode>>> = {
  400: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'too_large',
  415: 'unsupported',
  429: 'rate_limited',
  500: 'internal',
  502: 'upstream_failed',
  503: 'unavailable',
};

/**
 * better-auth's errors in our shape (its message, its code in details, its status); anything
 * else passes through unchanged. A status without a domain error (422 when better-auth fails
 * to create a user) stays an HttpError so the answer does not change: this adapter is the one
 * place outside the routes that knows the library answers in HTTP.
 */
export function translateAuthError(error: unknown): unknown {
  if (error instanceof AppError || error instanceof HttpError) return error;
  if (error instanceof APIError) {
    const message =
      typeof error.body?.message === 'string' ? error.body.message : AUTH_MESSAGES.authFailed;
    const status = error.statusCode >= 400 ? error.statusCode : 400;
    const details = { code: error.body?.code };
    const code = CODE_OF_STATUS[status];
    return code ? new AppError(code, message, details) : new HttpError(status, message, details);
  }
  return error;
}
