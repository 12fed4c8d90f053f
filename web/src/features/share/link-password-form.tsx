import { AUTH_MESSAGES, LINK_PASSWORD_MAX, LINK_PASSWORD_MESSAGES } from '@takes/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { lookupFailure } from './link-failure';

/** The message for a failed unlock: the server's words (wrong password, too many tries) first. */
export function unlockFailure(error: Error): string {
  if (error instanceof ApiError) {
    if (error.status === 404 || error.status === 410) return lookupFailure(error);
    if (error.status === 429) return error.serverMessage ?? AUTH_MESSAGES.tooManyRequests;
  }
  return errorMessage(error, 'The link could not be unlocked. Please try again.');
}

/**
 * 'This link needs a password': the password field and 'Unlock'. `unlock` sends the password (the
 * server answers with the link's cookie) and settles once the page has been read again, so a
 * success that leaves the form on screen means the browser did not keep the cookie.
 */
export function LinkPasswordForm({
  unlock,
  what,
}: {
  unlock: UseMutationResult<unknown, Error, string>;
  /** What the link opens, for the explanation ('the collection'). */
  what: string;
}) {
  const [password, setPassword] = useState('');
  // Each failure is announced again, even in the same words as the last one.
  const [failures, setFailures] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const blank = password.length === 0;

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blank || unlock.isPending) return;
    try {
      await unlock.mutateAsync(password);
    } catch {
      setFailures((count) => count + 1);
      // Back to the field, its text selected, ready for another try.
      inputRef.current?.focus();
      inputRef.current?.select();
    }
  }

  const message = unlock.error
    ? unlockFailure(unlock.error)
    : unlock.isSuccess
      ? 'The link could not stay unlocked in this browser. Allow cookies for this site and try again.'
      : null;

  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <h1 id={headingId} className="text-2xl font-bold">
        {LINK_PASSWORD_MESSAGES.needsPassword}
      </h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        Enter the password you were given with this link to open {what}.
      </p>
      <form
        aria-labelledby={headingId}
        onSubmit={(event) => void submit(event)}
        className="mt-6 space-y-4"
      >
        <TextField
          label="Password"
          type="password"
          value={password}
          onValueChange={setPassword}
          inputRef={inputRef}
          autoComplete="current-password"
          maxLength={LINK_PASSWORD_MAX}
          required
        />
        <div aria-live="assertive">
          {message ? (
            <Alert key={failures} tone="error">
              {message}
            </Alert>
          ) : null}
        </div>
        <button
          type="submit"
          className={primaryButton}
          disabled={blank || unlock.isPending}
          aria-busy={unlock.isPending || undefined}
        >
          Unlock
        </button>
      </form>
    </div>
  );
}
