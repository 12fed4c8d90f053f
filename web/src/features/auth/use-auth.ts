import { useContext } from 'react';
import type { SessionUser } from '@takes/contract';
import { AuthContext, type AuthContextValue } from './auth-context';

export function useAuth(): AuthContextValue {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used within an AuthProvider');
  return auth;
}

/** The signed-in user, for screens rendered behind `RequireAuth`. */
export function useCurrentUser(): SessionUser {
  const auth = useAuth();
  if (auth.status !== 'signed-in') {
    throw new Error('useCurrentUser must be used on a route behind RequireAuth');
  }
  return auth.user;
}
