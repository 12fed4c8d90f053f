import { useState, type FormEvent } from 'react';
import {
  AUTH_MESSAGES,
  emailSchema,
  passwordSchema,
  SIGNUP_MESSAGES,
  type SignupPolicyName,
} from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { linkButton } from '../../ui/button-styles';
import { PasswordField } from '../../ui/password-field';
import { signInWithEmail, signUpWithEmail } from './auth-api';
import { AuthForm, EmailField, FormError, SubmitButton, useAuthFields } from './auth-form-parts';
import { checkField } from './field-validation';
import { useAuth } from './use-auth';

type Mode = 'sign-in' | 'sign-up';

/** Why sign-up is not offered under a policy, word for word; null when anyone may sign up. */
export function signupPolicyMessage(policy: SignupPolicyName): string | null {
  if (policy === 'invite-only') return SIGNUP_MESSAGES.inviteOnly;
  if (policy === 'closed') return SIGNUP_MESSAGES.closed;
  return null;
}

interface EmailSignInFormProps {
  initialMode?: Mode;
  /** The sign-up policy in force ('open' until the server has said). */
  signups?: SignupPolicyName | undefined;
}

/**
 * Sign in, or sign up, with an email and a password. When sign-ups are not open, the sign-in form
 * says why in place of 'Sign Up'; the sign-up form (an invitation's 'Sign up' opens it) keeps
 * working for invited people and says the same above its fields.
 */
export function EmailSignInForm({
  initialMode = 'sign-in',
  signups = 'open',
}: EmailSignInFormProps) {
  const { acceptSession } = useAuth();
  const [mode, setMode] = useState<Mode>(initialMode);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const fields = useAuthFields<'email' | 'password'>();
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const policyMessage = signupPolicyMessage(signups);

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
      {policyMessage && mode === 'sign-up' && <Alert tone="info">{policyMessage}</Alert>}
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
      {policyMessage && mode === 'sign-in' ? (
        <p className="text-center text-sm text-zinc-600 dark:text-zinc-400">{policyMessage}</p>
      ) : (
        <p className="text-center">
          <button type="button" className={linkButton} onClick={switchMode}>
            {mode === 'sign-in' ? 'Need an account? Sign Up' : 'Already have an account? Sign In'}
          </button>
        </p>
      )}
    </AuthForm>
  );
}
