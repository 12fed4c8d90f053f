import { useEffect, useRef, useState } from 'react';
import { AUTH_MESSAGES } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { signInAsDemo } from './auth-api';
import { useAuth } from './use-auth';

export type DemoSignIn = { phase: 'idle' | 'pending' } | { phase: 'failed'; error: string };

/** Signs into the demo account once, when `enabled` (a signed-out visitor on /login?demo=true). */
export function useDemoSignIn(enabled: boolean): DemoSignIn {
  const { acceptSession } = useAuth();
  const [result, setResult] = useState<DemoSignIn>({ phase: 'idle' });
  // Strict mode runs effects twice in development; the demo sign-in must go out once.
  const started = useRef(false);

  useEffect(() => {
    if (!enabled || started.current) return;
    started.current = true;
    signInAsDemo()
      .then(acceptSession)
      .catch((error: unknown) =>
        setResult({ phase: 'failed', error: errorMessage(error, AUTH_MESSAGES.authFailed) }),
      );
  }, [enabled, acceptSession]);

  // Until it answers, the request counts as pending from the first render, so no form flashes.
  if (enabled && result.phase === 'idle') return { phase: 'pending' };
  return result;
}
