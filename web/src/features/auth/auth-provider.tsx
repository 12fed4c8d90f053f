import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SessionResponse } from '@takes/contract';
import { AuthContext, type AuthContextValue, type AuthState } from './auth-context';
import { fetchSession, signOutOnServer } from './session-api';

function stateFrom(session: SessionResponse | null): AuthState {
  return session
    ? { status: 'signed-in', user: session.user }
    : { status: 'signed-out', user: null };
}

/** Holds who is signed in; reads the session once on start. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading', user: null });

  useEffect(() => {
    const controller = new AbortController();
    fetchSession(controller.signal)
      .then((session) => setState(stateFrom(session)))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // Without a readable session the app treats the visitor as signed out; the server
        // still refuses anything the session would not allow.
        console.error('Could not read the session', error);
        setState(stateFrom(null));
      });
    return () => controller.abort();
  }, []);

  const refresh = useCallback(async () => {
    try {
      setState(stateFrom(await fetchSession()));
    } catch (error) {
      // A failed re-read changes nothing: what was shown stays, the next call tries again.
      console.error('Could not refresh the session', error);
    }
  }, []);

  const signOut = useCallback(async () => {
    await signOutOnServer();
    setState(stateFrom(null));
  }, []);

  const acceptSession = useCallback((session: SessionResponse) => {
    setState(stateFrom(session));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, refresh, signOut, acceptSession }),
    [state, refresh, signOut, acceptSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
