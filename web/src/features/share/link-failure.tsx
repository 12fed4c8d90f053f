import { SHARE_MESSAGES } from '@takes/contract';
import { ApiError, errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';

/** The page's message for a failed lookup: the server's words when it sent one of ours. */
export function lookupFailure(error: Error): string {
  if (error instanceof ApiError) {
    const known = Object.values(SHARE_MESSAGES) as string[];
    if (error.serverMessage && known.includes(error.serverMessage)) return error.serverMessage;
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
