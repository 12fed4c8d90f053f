import { APIError } from 'better-auth/api';
import { AUTH_MESSAGES } from '@takes/contract';
import { AppError } from '../../errors';
import { HttpError, kindOfStatus } from '../../http/errors';

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
    // better-auth speaks HTTP statuses; most have a domain error (and its code) of their own.
    const kind = kindOfStatus(status);
    return kind ? new AppError(kind, message, details) : new HttpError(status, message, details);
  }
  return error;
}
