import { useState, type FormEvent } from 'react';
import { AUTH_MESSAGES, emailSchema, otpSchema } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { linkButton } from '../../ui/button-styles';
import { CodeField } from './code-field';
import { verifyMagicCode } from './auth-api';
import { AuthForm, EmailField, FormError, SubmitButton, useAuthFields } from './auth-form-parts';
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
  const fields = useAuthFields<'email' | 'code'>();
  const [formError, setFormError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const emailCheck = checkField(emailSchema, email);
    const codeCheck = checkField(otpSchema, code);
    fields.report({ email: emailCheck, code: codeCheck });
    if (!emailCheck.ok || !codeCheck.ok) return;
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
      <EmailField {...fields.bind('email', email, onEmailChange)} />
      <CodeField {...fields.bind('code', code, setCode)} />
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
