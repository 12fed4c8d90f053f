import {
  AUTH_MESSAGES,
  authProvidersSchema,
  magicLinkDetailsSchema,
  sessionResponseSchema,
  type AuthProviders,
  type SessionResponse,
} from '@takes/contract';
import { ApiError, apiGet, apiPost } from '../../lib/api';

export type SocialProvider = 'google' | 'apple';

const authFailed = { fallbackMessage: AUTH_MESSAGES.authFailed };

export async function signInWithEmail(email: string, password: string): Promise<SessionResponse> {
  const body = await apiPost<unknown>('/api/auth/sign-in/email', { email, password }, authFailed);
  return sessionResponseSchema.parse(body);
}

/** The new session, or null when the account waits for email confirmation. */
export async function signUpWithEmail(
  email: string,
  password: string,
): Promise<SessionResponse | null> {
  const body = await apiPost<unknown>('/api/auth/sign-up/email', { email, password }, authFailed);
  const session = sessionResponseSchema.safeParse(body);
  return session.success ? session.data : null;
}

export async function sendMagicCode(email: string): Promise<void> {
  await apiPost(
    '/api/auth/magic-code/send',
    { email },
    {
      fallbackMessage: AUTH_MESSAGES.magicLinkFailed,
    },
  );
}

export async function verifyMagicCode(email: string, code: string): Promise<SessionResponse> {
  const body = await apiPost<unknown>(
    '/api/auth/magic-code/verify',
    { email, code },
    {
      fallbackMessage: AUTH_MESSAGES.otpInvalid,
    },
  );
  return sessionResponseSchema.parse(body);
}

/** Whom an emailed link signs in; it stays unused until `signInWithMagicLink`. */
export async function fetchMagicLinkEmail(token: string, signal?: AbortSignal): Promise<string> {
  const body = await apiPost<unknown>(
    '/api/auth/magic-code/link/details',
    { token },
    { signal, fallbackMessage: AUTH_MESSAGES.authFailed },
  );
  return magicLinkDetailsSchema.parse(body).email;
}

/** Signs in with an emailed link (once). */
export async function signInWithMagicLink(token: string): Promise<SessionResponse> {
  const body = await apiPost<unknown>('/api/auth/magic-code/link', { token }, authFailed);
  return sessionResponseSchema.parse(body);
}

/** The provider's sign-in address to send the browser to. */
export async function startSocialSignIn(
  provider: SocialProvider,
  fallbackMessage: string,
): Promise<string> {
  const body = await apiPost<{ url?: unknown }>(
    `/api/auth/social/${provider}`,
    { callbackURL: '/dashboard' },
    { fallbackMessage },
  );
  if (typeof body.url !== 'string') throw new ApiError(200, fallbackMessage, undefined);
  return body.url;
}

export async function signInAsDemo(): Promise<SessionResponse> {
  const body = await apiPost<unknown>('/api/auth/demo', undefined, authFailed);
  return sessionResponseSchema.parse(body);
}

export async function fetchAuthProviders(signal?: AbortSignal): Promise<AuthProviders> {
  return authProvidersSchema.parse(await apiGet<unknown>('/api/auth/providers', { signal }));
}
