import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { startSocialSignIn } from './auth-api';

/**
 * 'Sign in with {name}': single sign-on through the studio's own provider (OIDC_*). `callbackURL`
 * is the path on this site the provider sends the visitor back to, signed in.
 */
export function OidcSignInButton({ name, callbackURL }: { name: string; callbackURL: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signIn() {
    setPending(true);
    setError(null);
    const fallback = `An error occurred during ${name} sign in`;
    try {
      window.location.assign(await startSocialSignIn('oidc', fallback, callbackURL));
    } catch (caught) {
      setError(errorMessage(caught, fallback));
      setPending(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {error && <Alert tone="error">{error}</Alert>}
      <button
        type="button"
        className={`${primaryButton} w-full`}
        disabled={pending}
        aria-busy={pending || undefined}
        onClick={() => void signIn()}
      >
        Sign in with {name}
      </button>
    </div>
  );
}
