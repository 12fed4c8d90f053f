import { useState, type FormEvent } from 'react';
import { AUTH_MESSAGES, emailSchema, passwordSchema } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { linkButton } from '../../ui/button-styles';
import { PasswordField } from '../../ui/password-field';
import { signInWithEmail, signUpWithEmail } from './auth-api';
import { AuthForm, EmailField, FormError, SubmitButton, useAuthFields } from './auth-form-parts';
import { checkField } from './field-validation';
import { useAuth } from './use-auth';

type Mode = 'sign-in' | 'sign-up';

export function EmailSignInForm({ initialMode = 'sign-in' }: { initialMode?: Mode }) {
  const { acceptSession } = useAuth();
  const [mode, setMode] = useState<Mode>(initialMode);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const fields = useAuthFields<'email' | 'password'>();
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  function switchMode() {
    setMode((current) => (current === 'sign-in' ? 'sign-up' : 'sign-in'));
    setFormError(null);
    setNotice(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setNotice(null);
    const emailCheck = checkField(emailSchema, email);
    const passwordCheck = checkField(passwordSchema, password);
    fields.report({ email: emailCheck, password: passwordCheck });
    if (!emailCheck.ok || !passwordCheck.ok) return;

    setSubmitting(true);
    try {
      if (mode === 'sign-in') {
        acceptSession(await signInWithEmail(emailCheck.value, passwordCheck.value));
        return;
      }
      const session = await signUpWithEmail(emailCheck.value, passwordCheck.value);
      if (session) acceptSession(session);
      else setNotice(AUTH_MESSAGES.signUpNotice);
    } catch (error) {
      setFormError(errorMessage(error, AUTH_MESSAGES.authFailed));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthForm onSubmit={onSubmit}>
      <FormError message={formError} />
      {notice && <Alert tone="success">{notice}</Alert>}
      <EmailField {...fields.bind('email', email, setEmail)} />
      <PasswordField
        label="Password"
        autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
        {...fields.bind('password', password, setPassword)}
      />
      <SubmitButton disabled={submitting}>
        {mode === 'sign-in' ? 'Sign In' : 'Sign Up'}
      </SubmitButton>
      <p className="text-center">
        <button type="button" className={linkButton} onClick={switchMode}>
          {mode === 'sign-in' ? 'Need an account? Sign Up' : 'Already have an account? Sign In'}
        </button>
      </p>
    </AuthForm>
  );
}
