import { useEffect, useState } from 'react';
import type { AuthProviders } from '@takes/contract';
import { fetchAuthProviders } from './auth-api';

/** Which social providers this server has configured; null until known (or if it cannot be read). */
export function useAuthProviders(): AuthProviders | null {
  const [providers, setProviders] = useState<AuthProviders | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchAuthProviders(controller.signal)
      .then(setProviders)
      .catch((error: unknown) => {
        // Unknown leaves the buttons enabled; the sign-in call then reports what is wrong.
        if (!controller.signal.aborted)
          console.error('Could not read the sign-in providers', error);
      });
    return () => controller.abort();
  }, []);

  return providers;
}
