import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AUTH_MESSAGES } from '@takes/contract';
import { ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { fetchMagicLinkEmail, signInWithMagicLink } from './auth-api';
import { DEFAULT_AFTER_SIGN_IN } from './redirect-target';
import { takeReturnTo } from './return-to';
import { useAuth } from './use-auth';

const INVALID_LINK = '/login?error=invalid_link';

/** The token of an emailed link rides in the fragment (`#token=…`), so no server log sees it. */
function tokenFrom(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') || null;
}

type Phase =
  | { name: 'checking' }
  | { name: 'asking'; email: string }
  | { name: 'signing-in'; email: string }
  | { name: 'failed'; email: string | null; message: string };

/**
 * Where the emailed sign-in link leads. Opening it signs nobody in: the page asks
 * 'Sign in as {email}?', and only the button signs in (a same-origin POST), so another
 * site cannot sign a visitor into an account of its choosing.
 */
export function MagicLinkPage() {
  useDocumentTitle('Sign in · Takes');
  const location = useLocation();
  const navigate = useNavigate();
  const { acceptSession } = useAuth();
  const [token] = useState(() => tokenFrom(location.hash));
  const [phase, setPhase] = useState<Phase>({ name: 'checking' });

  // Out of the address bar and history: the token is a credential until it is used.
  const { hash, pathname, search } = location;
  useEffect(() => {
    if (hash) void navigate({ pathname, search }, { replace: true });
  }, [hash, pathname, search, navigate]);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    fetchMagicLinkEmail(token, controller.signal).then(
      (email) => setPhase({ name: 'asking', email }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 400) {
          void navigate(INVALID_LINK, { replace: true });
          return;
        }
        setPhase({
          name: 'failed',
          email: null,
          message: errorMessage(error, AUTH_MESSAGES.authFailed),
        });
      },
    );
    return () => controller.abort();
  }, [token, navigate]);

  if (!token) return <Navigate to={INVALID_LINK} replace />;
  if (phase.name === 'checking') return <PageSpinner label="Checking your sign-in link" />;

  async function onSignIn(email: string) {
    if (!token) return;
    setPhase({ name: 'signing-in', email });
    try {
      acceptSession(await signInWithMagicLink(token));
      // Back to where the sign-in started (an invitation, say), when this browser remembers it.
      await navigate(takeReturnTo() ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        await navigate(INVALID_LINK, { replace: true });
        return;
      }
      setPhase({ name: 'failed', email, message: errorMessage(error, AUTH_MESSAGES.authFailed) });
    }
  }

  const email = phase.email;
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-4 py-16 sm:px-6">
      {email ? (
        <>
          <h1 className="text-2xl font-bold tracking-tight break-words text-zinc-900 dark:text-white">
            Sign in as {email}?
          </h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            This link from your email signs you in to Takes once. If you did not ask to sign in,
            close this page.
          </p>
          {phase.name === 'failed' && <Alert tone="error">{phase.message}</Alert>}
          <div>
            <button
              type="button"
              className={primaryButton}
              disabled={phase.name === 'signing-in'}
              onClick={() => void onSignIn(email)}
            >
              Sign in
            </button>
          </div>
        </>
      ) : (
        phase.name === 'failed' && <Alert tone="error">{phase.message}</Alert>
      )}
    </div>
  );
}
