import { useEffect, useState } from 'react';
import type { AuthProviders } from '@takes/contract';
import { fetchAuthProviders } from './auth-api';

/**
 * Which sign-in providers this server has configured (null until known, or if they cannot be
 * read), and whether the question is settled (answered or failed).
 */
export function useAuthProvidersState(): { providers: AuthProviders | null; settled: boolean } {
  const [state, setState] = useState<{ providers: AuthProviders | null; settled: boolean }>({
    providers: null,
    settled: false,
  });

  useEffect(() => {
    const controller = new AbortController();
    fetchAuthProviders(controller.signal)
      .then((providers) => setState({ providers, settled: true }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // Unknown leaves the buttons enabled; the sign-in call then reports what is wrong.
        console.error('Could not read the sign-in providers', error);
        setState({ providers: null, settled: true });
      });
    return () => controller.abort();
  }, []);

  return state;
}

/** Which sign-in providers this server has configured; null until known (or if it cannot be read). */
export function useAuthProviders(): AuthProviders | null {
  return useAuthProvidersState().providers;
}
