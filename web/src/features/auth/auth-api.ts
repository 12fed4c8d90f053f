import {
  AUTH_MESSAGES,
  authProvidersSchema,
  routes,
  magicLinkDetailsSchema,
  sessionResponseSchema,
  type AuthProviders,
  type SOCIAL_PROVIDERS,
  type SessionResponse,
} from '@takes/contract';
import { api, ApiError } from '../../lib/api';

const auth = routes.auth;

export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

const authFailed = { fallbackMessage: AUTH_MESSAGES.authFailed };

export async function signInWithEmail(email: string, password: string): Promise<SessionResponse> {
  const body = await api.call(auth.signInWithEmail, { body: { email, password }, ...authFailed });
  return sessionResponseSchema.parse(body);
}

/** The new session, or null when the account waits for email confirmation. */
export async function signUpWithEmail(
  email: string,
  password: string,
): Promise<SessionResponse | null> {
  const body = await api.call(auth.signUpWithEmail, { body: { email, password }, ...authFailed });
  const session = sessionResponseSchema.safeParse(body);
  return session.success ? session.data : null;
}

export async function sendMagicCode(email: string): Promise<void> {
  await api.call(auth.sendMagicCode, {
    body: { email },
    fallbackMessage: AUTH_MESSAGES.magicLinkFailed,
  });
}

export async function verifyMagicCode(email: string, code: string): Promise<SessionResponse> {
  const body = await api.call(auth.verifyMagicCode, {
    body: { email, code },
    fallbackMessage: AUTH_MESSAGES.otpInvalid,
  });
  return sessionResponseSchema.parse(body);
}

/** Whom an emailed link signs in; it stays unused until `signInWithMagicLink`. */
export async function fetchMagicLinkEmail(token: string, signal?: AbortSignal): Promise<string> {
  const body = await api.call(auth.getMagicLinkDetails, {
    body: { token },
    signal,
    fallbackMessage: AUTH_MESSAGES.authFailed,
  });
  return magicLinkDetailsSchema.parse(body).email;
}

/** Signs in with an emailed link (once). */
export async function signInWithMagicLink(token: string): Promise<SessionResponse> {
  const body = await api.call(auth.signInWithMagicLink, { body: { token }, ...authFailed });
  return sessionResponseSchema.parse(body);
}

/** The provider's sign-in address to send the browser to. */
export async function startSocialSignIn(
  provider: SocialProvider,
  fallbackMessage: string,
  callbackURL = '/dashboard',
): Promise<string> {
  const body = await api.call(auth.startSocialSignIn, {
    params: { provider },
    body: { callback_url: callbackURL },
    fallbackMessage,
  });
  // Checked at run time too: the browser must never be sent to `undefined`.
  const url: unknown = body.url;
  if (typeof url !== 'string') throw new ApiError(200, fallbackMessage, undefined);
  return url;
}

export async function signInAsDemo(): Promise<SessionResponse> {
  const body = await api.call(routes.demo.startDemo, authFailed);
  return sessionResponseSchema.parse(body);
}

export async function fetchAuthProviders(signal?: AbortSignal): Promise<AuthProviders> {
  return authProvidersSchema.parse(await api.call(auth.getAuthProviders, { signal }));
}
