import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { AUTH_MESSAGES, OTP_LENGTH, routes } from '@takes/contract';
import { api, ApiError, errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { CodeField } from '../auth/code-field';

// Taking a seat (an emailed invitation, an invite link) needs a proven address: the server
// refuses with 'email_unverified' and mails a code, which this form takes.

/**
 * The address a refused accept sent a confirmation code to, when the account has not proven its
 * address yet (403 with the code 'email_unverified'); null for any other refusal.
 */
export function codeSentTo(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const details = error.details as { email?: unknown } | undefined;
  return error.code === 'email_unverified' && typeof details?.email === 'string'
    ? details.email
    : null;
}

/** The code's own check before asking the server (the contract's words). */
function codeProblem(code: string): string | undefined {
  if (!code) return AUTH_MESSAGES.otpRequired;
  if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code)) return AUTH_MESSAGES.otpDigits;
  return undefined;
}

/**
 * An account that never proved its address confirms it before accepting: the server mailed a
 * 6-digit code when accept was refused; 'Confirm' proves the address and accepts again.
 */
export function ConfirmEmailForm({
  email,
  reason,
  accepting,
  acceptError,
  onConfirmed,
  onSendNewCode,
}: {
  email: string;
  /** Why a code is asked for (the server's words). */
  reason: string;
  accepting: boolean;
  /** Why accepting failed after the address was confirmed (expired meanwhile, say). */
  acceptError: string | null;
  onConfirmed: () => void;
  onSendNewCode: () => void;
}) {
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const verify = useMutation({
    mutationFn: (value: string) =>
      api.call(routes.auth.verifyEmail, {
        body: { code: value },
        fallbackMessage: AUTH_MESSAGES.otpInvalid,
      }),
    onSuccess: onConfirmed,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = code.trim();
    const problem = codeProblem(value);
    setFieldError(problem);
    if (problem) return;
    verify.mutate(value);
  }

  const busy = verify.isPending || accepting;
  return (
    <form noValidate onSubmit={submit} className="space-y-3">
      <Alert tone="info">{reason}</Alert>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Enter the 6-digit code we sent to <strong className="break-words">{email}</strong>.
      </p>
      <CodeField value={code} onValueChange={setCode} error={fieldError} />
      {verify.isError && (
        <Alert tone="error">{errorMessage(verify.error, AUTH_MESSAGES.otpInvalid)}</Alert>
      )}
      {acceptError && <Alert tone="error">{acceptError}</Alert>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? 'Confirming…' : 'Confirm'}
        </button>
        <button type="button" className={secondaryButton} disabled={busy} onClick={onSendNewCode}>
          Send a new code
        </button>
      </div>
    </form>
  );
}
