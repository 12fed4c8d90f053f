import { createContext } from 'react';
import type { SessionResponse, SessionUser } from '@takes/contract';

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signed-in'; user: SessionUser }
  | { status: 'signed-out'; user: null };

export type AuthContextValue = AuthState & {
  /** Reads the session again (after a profile change, for example). */
  refresh: () => Promise<void>;
  /** Ends the session on the server, then here. */
  signOut: () => Promise<void>;
  /** Takes the session a sign-in call answered with. */
  acceptSession: (session: SessionResponse) => void;
};

export const AuthContext = createContext<AuthContextValue | null>(null);
