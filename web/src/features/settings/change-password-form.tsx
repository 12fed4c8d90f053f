import { useState, type FormEvent } from 'react';
import { AUTH_MESSAGES, passwordSchema } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { PasswordField } from '../../ui/password-field';
import { checkField } from '../auth/field-validation';
import { useCurrentUser } from '../auth/use-auth';
import { changePassword } from './settings-api';

const PASSWORDS_DIFFER = 'Passwords do not match';

interface FieldErrors {
  current?: string;
  next?: string;
  confirm?: string;
}

type Result = { tone: 'success' | 'error'; message: string } | null;

function validate(current: string, next: string, confirm: string): FieldErrors {
  const nextCheck = checkField(passwordSchema, next);
  return {
    current: current === '' ? AUTH_MESSAGES.passwordRequired : undefined,
    next: nextCheck.ok ? undefined : nextCheck.error,
    confirm: confirm !== next ? PASSWORDS_DIFFER : undefined,
  };
}

export function ChangePasswordForm() {
  const user = useCurrentUser();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<Result>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResult(null);
    const found = validate(current, next, confirm);
    setErrors(found);
    if (found.current || found.next || found.confirm) return;

    setSaving(true);
    try {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      setResult({ tone: 'success', message: 'Your password has been changed.' });
    } catch (error) {
      setResult({ tone: 'error', message: errorMessage(error, 'Failed to change password') });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section aria-labelledby="change-password-heading">
      <h2
        id="change-password-heading"
        className="text-lg font-semibold text-zinc-900 dark:text-white"
      >
        Change password
      </h2>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="mt-3 flex flex-col gap-4"
      >
        {/* Tells password managers whose password this is. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={user.email}
          readOnly
          hidden
        />
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={current}
          onValueChange={setCurrent}
          error={errors.current}
        />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={next}
          onValueChange={setNext}
          error={errors.next}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={confirm}
          onValueChange={setConfirm}
          error={errors.confirm}
        />
        {result && <Alert tone={result.tone}>{result.message}</Alert>}
        <div>
          <button type="submit" className={primaryButton} disabled={saving}>
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}
