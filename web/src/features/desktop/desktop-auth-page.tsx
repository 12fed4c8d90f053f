import { useState } from 'react';
import { useNavigate } from 'react-router';
import { routes } from '@takes/contract';
import { api, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { useCurrentUser } from '../auth/use-auth';

const APPROVE_FAILED = 'Authentication failed';

/** A signed-in person approves the desktop app's sign-in; the code goes back through /desktop-return. */
export function DesktopAuthPage() {
  useDocumentTitle('Sign in to Takes Desktop · Takes');
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [approving, setApproving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function approve() {
    setApproving(true);
    setError(null);
    try {
      const { code } = await api.call(routes.desktop.approveDesktopSignIn, {
        fallbackMessage: APPROVE_FAILED,
      });
      await navigate(`/desktop-return?code=${encodeURIComponent(code)}`);
    } catch (caught) {
      setError(errorMessage(caught, APPROVE_FAILED));
      setApproving(false);
    }
  }

  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight text-zinc-900 dark:text-white">
        Sign in to Takes Desktop
      </h1>
      <p className="mt-4 text-zinc-600 dark:text-zinc-400">
        Takes Desktop will be signed in as <strong>{user.email}</strong>. Approve only if you
        started this from the desktop app.
      </p>
      {error && (
        <Alert tone="error" className="mt-6">
          {error}
        </Alert>
      )}
      <button
        type="button"
        className={`${primaryButton} mt-8`}
        disabled={approving}
        onClick={() => void approve()}
      >
        Approve
      </button>
    </div>
  );
}
