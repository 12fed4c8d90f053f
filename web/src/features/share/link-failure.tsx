import { SHARE_MESSAGES, type ErrorCode } from '@takes/contract';
import { ApiError, errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';

const LINK_REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'link_not_found',
  'link_expired',
  'link_is_collection',
  'not_found',
  'gone',
]);

/** The page's message for a failed lookup: the server's words when it sent one of ours. */
export function lookupFailure(error: Error): string {
  if (error instanceof ApiError) {
    // A refusal of the link itself carries the server's own words for it.
    if (error.serverMessage && error.code && LINK_REFUSALS.has(error.code))
      return error.serverMessage;
    if (error.status === 404) return SHARE_MESSAGES.linkNotFound;
    if (error.status === 410) return SHARE_MESSAGES.linkExpired;
  }
  return errorMessage(error, error.message);
}

/** A share page that cannot be shown (unknown, revoked or expired link): its message alone. */
export function LinkFailure({ title, message }: { title: string; message: string }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="sr-only">{title}</h1>
      <Alert tone="error">{message}</Alert>
    </div>
  );
}
