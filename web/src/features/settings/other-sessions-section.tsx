import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { signOutOtherSessions } from './settings-api';

type Result = { tone: 'success' | 'error'; message: string } | null;

function revokedMessage(revoked: number): string {
  if (revoked === 0) return 'There were no other sessions to sign out.';
  return `Signed out of ${revoked} other ${revoked === 1 ? 'session' : 'sessions'}.`;
}

export function OtherSessionsSection({ onSignedOut }: { onSignedOut?: () => void } = {}) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>(null);

  async function onClick() {
    setBusy(true);
    setResult(null);
    try {
      setResult({ tone: 'success', message: revokedMessage(await signOutOtherSessions()) });
      onSignedOut?.();
    } catch (error) {
      setResult({
        tone: 'error',
        message: errorMessage(error, 'Failed to sign out other sessions'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="text-lg font-semibold text-zinc-900 dark:text-white">
        Sessions
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Signed in on another computer or browser? End those sessions, and sign out the desktop app
        and the CLI; this one stays signed in.
      </p>
      <div className="mt-3 flex flex-col items-start gap-3">
        <button
          type="button"
          className={secondaryButton}
          disabled={busy}
          onClick={() => void onClick()}
        >
          Sign out of all other sessions
        </button>
        {result && <Alert tone={result.tone}>{result.message}</Alert>}
      </div>
    </section>
  );
}
