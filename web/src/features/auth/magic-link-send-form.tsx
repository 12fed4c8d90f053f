import { useState, type FormEvent } from 'react';
import { AUTH_MESSAGES, emailSchema } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { sendMagicCode } from './auth-api';
import { AuthForm, EmailField, FormError, SubmitButton, useAuthFields } from './auth-form-parts';
import { checkField } from './field-validation';

interface MagicLinkSendFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  initialError: string | null;
  /** Called with the address the link went to. */
  onSent: (email: string) => void;
}

export function MagicLinkSendForm({
  email,
  onEmailChange,
  initialError,
  onSent,
}: MagicLinkSendFormProps) {
  const fields = useAuthFields<'email'>();
  const [formError, setFormError] = useState<string | null>(initialError);
  const [sending, setSending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const emailCheck = checkField(emailSchema, email);
    fields.report({ email: emailCheck });
    if (!emailCheck.ok) return;
    setSending(true);
    try {
      await sendMagicCode(emailCheck.value);
      onSent(emailCheck.value);
    } catch (error) {
      setFormError(errorMessage(error, AUTH_MESSAGES.magicLinkFailed));
      setSending(false);
    }
  }

  return (
    <AuthForm onSubmit={onSubmit}>
      <FormError message={formError} />
      <EmailField {...fields.bind('email', email, onEmailChange)} />
      <SubmitButton disabled={sending}>Send Magic Link</SubmitButton>
      <Alert tone="info">
        We'll send you a secure link to sign in instantly. No password required!
      </Alert>
    </AuthForm>
  );
}
