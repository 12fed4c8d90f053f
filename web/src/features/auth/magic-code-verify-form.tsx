import { useRef, useState, type FormEvent } from 'react';
import { AUTH_MESSAGES, OTP_LENGTH, emailSchema, otpSchema } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { linkButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { verifyMagicCode } from './auth-api';
import { AuthForm, EmailField, FormError, SubmitButton, useFieldErrors } from './auth-form-parts';
import { checkField } from './field-validation';
import { useAuth } from './use-auth';

interface MagicCodeVerifyFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** Back to step 1. */
  onSendNewLink: () => void;
}

export function MagicCodeVerifyForm({
  email,
  onEmailChange,
  onSendNewLink,
}: MagicCodeVerifyFormProps) {
  const { acceptSession } = useAuth();
  const [code, setCode] = useState('');
  const fields = useFieldErrors<'email' | 'code'>();
  const [formError, setFormError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const emailCheck = checkField(emailSchema, email);
    const codeCheck = checkField(otpSchema, code);
    fields.setErrors({
      email: emailCheck.ok ? undefined : emailCheck.error,
      code: codeCheck.ok ? undefined : codeCheck.error,
    });
    if (!emailCheck.ok || !codeCheck.ok) {
      (emailCheck.ok ? codeRef : emailRef).current?.focus();
      return;
    }
    setVerifying(true);
    try {
      acceptSession(await verifyMagicCode(emailCheck.value, codeCheck.value));
    } catch (error) {
      setFormError(errorMessage(error, AUTH_MESSAGES.otpInvalid));
      setVerifying(false);
    }
  }

  return (
    <AuthForm onSubmit={onSubmit}>
      <Alert tone="success">{AUTH_MESSAGES.magicLinkNotice}</Alert>
      <FormError message={formError} />
      <EmailField
        value={email}
        onValueChange={(value) => {
          onEmailChange(value);
          fields.clear('email');
        }}
        error={fields.errors.email}
        inputRef={emailRef}
      />
      <TextField
        label="6-digit code"
        autoComplete="one-time-code"
        autoFocus
        inputMode="numeric"
        maxLength={OTP_LENGTH}
        value={code}
        onValueChange={(value) => {
          setCode(value);
          fields.clear('code');
        }}
        error={fields.errors.code}
        inputRef={codeRef}
      />
      <SubmitButton disabled={verifying}>Verify Code &amp; Sign In</SubmitButton>
      <p className="text-center">
        <button type="button" className={linkButton} onClick={onSendNewLink}>
          ← Send New Magic Link
        </button>
      </p>
      <p className="text-center text-xs text-zinc-500 dark:text-zinc-400">
        Check your email for a 6-digit code and enter it above, or click the magic link in the
        email.
      </p>
    </AuthForm>
  );
}
