import { useId, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { startSocialSignIn, type SocialProvider } from './auth-api';
import { useAuthProviders } from './use-auth-providers';

const workingProviders: readonly { id: SocialProvider; name: string }[] = [
  { id: 'apple', name: 'Apple' },
  { id: 'google', name: 'Google' },
];

const comingSoonProviders = ['Facebook', 'GitHub'] as const;

/** `callbackURL`: the path on this site the provider sends the visitor back to, signed in. */
export function SocialSignInPanel({ callbackURL = '/dashboard' }: { callbackURL?: string }) {
  const providers = useAuthProviders();
  const noteIdPrefix = useId();
  const [pending, setPending] = useState<SocialProvider | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function signInWith(provider: SocialProvider, name: string) {
    setPending(provider);
    setError(null);
    const fallback = `An error occurred during ${name} sign in`;
    try {
      window.location.assign(await startSocialSignIn(provider, fallback, callbackURL));
    } catch (caught) {
      setError(errorMessage(caught, fallback));
      setPending(null);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {error && <Alert tone="error">{error}</Alert>}
      {workingProviders.map(({ id, name }) => {
        const notConfigured = providers?.[id] === false;
        const noteId = `${noteIdPrefix}-${id}-not-configured`;
        return (
          <div key={id}>
            <button
              type="button"
              className={`${secondaryButton} w-full`}
              disabled={notConfigured || pending !== null}
              aria-busy={pending === id || undefined}
              aria-describedby={notConfigured ? noteId : undefined}
              onClick={() => void signInWith(id, name)}
            >
              Continue with {name}
            </button>
            {notConfigured && (
              <p id={noteId} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
                {name} sign-in is not configured on this server
              </p>
            )}
          </div>
        );
      })}
      {comingSoonProviders.map((name) => (
        <button key={name} type="button" className={`${secondaryButton} w-full`} disabled>
          Continue with {name}
          <span className="rounded-full bg-zinc-200 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200">
            Coming Soon
          </span>
        </button>
      ))}
    </div>
  );
}
