import { useEffect, useState } from 'react';
import { routes } from '@takes/contract';
import { api } from '../../lib/api';

/**
 * Whether this server offers 'Try demo' (DEMO_ENABLED, from /api/auth/providers). Until the
 * answer comes, and if it cannot be read, it is assumed on: the sign-in then says what is wrong.
 */
export function useDemoAvailable(): boolean {
  const [available, setAvailable] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    api
      .call(routes.auth.getAuthProviders, { signal: controller.signal })
      // Read defensively: an answer without the field leaves the demo on.
      .then((providers: { demo?: unknown } | null) => setAvailable(providers?.demo !== false))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  return available;
}
