import { z } from 'zod';
import {
  authProvidersSchema,
  changePasswordBodySchema,
  magicCodeSendBodySchema,
  magicCodeVerifyBodySchema,
  magicLinkBodySchema,
  magicLinkDetailsSchema,
  otpSchema,
  sessionProbeSchema,
  sessionResponseSchema,
  signInBodySchema,
  signUpBodySchema,
  SOCIAL_PROVIDERS,
  socialSignInBodySchema,
} from '../auth';
import { binaryBody, defineEndpoint, redirect } from '../endpoint';
import { okSchema, publicAccess, signedIn } from './shared';
import { DEMO_MESSAGES } from '../demo';

const tag = 'auth';
const providerParams = z.object({ provider: z.enum(SOCIAL_PROVIDERS) });
/** The OAuth callback takes any provider name; better-auth answers for the unknown ones. */
const callbackParams = z.object({ provider: z.string() });

export const getSession = defineEndpoint({
  name: 'getSession',
  method: 'GET',
  path: '/api/auth/session',
  summary: 'Who is signed in, and until when',
  description:
    'Asking is not an error: with no credentials at all, or a session cookie that matches no live session, it answers 200 with `user` and `expires_at` null. A bearer token (header or `?token=`) that is invalid or expired answers 401, so a client knows to refresh it.',
  tag,
  // Anyone may ask: the answer says who, if anyone, the credentials sent belong to.
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: sessionProbeSchema },
  errors: [401],
});

export const getAuthProviders = defineEndpoint({
  name: 'getAuthProviders',
  method: 'GET',
  path: '/api/auth/providers',
  summary: 'Which sign-in providers (Google, Apple) and whether the demo are turned on',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: authProvidersSchema },
  errors: [],
});

export const signUpWithEmail = defineEndpoint({
  name: 'signUpWithEmail',
  method: 'POST',
  path: '/api/auth/sign-up/email',
  summary: 'Create an account with email and password, and sign in',
  description: 'Sets the session cookie.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: signUpBodySchema,
  responses: { 200: sessionResponseSchema },
  errors: [400, 409, 429],
});

export const signInWithEmail = defineEndpoint({
  name: 'signInWithEmail',
  method: 'POST',
  path: '/api/auth/sign-in/email',
  summary: 'Sign in with email and password',
  description: 'Sets the session cookie.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: signInBodySchema,
  responses: { 200: sessionResponseSchema },
  errors: [400, 401, 429],
});

export const signOut = defineEndpoint({
  name: 'signOut',
  method: 'POST',
  path: '/api/auth/sign-out',
  summary: 'Sign out of this browser session',
  description:
    'Ends the session of the session cookie sent, if any, and clears the cookie; without one it still answers ok.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: okSchema },
  errors: [400],
});

export const sendMagicCode = defineEndpoint({
  name: 'sendMagicCode',
  method: 'POST',
  path: '/api/auth/magic-code/send',
  summary: 'Email a sign-in code and link',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: magicCodeSendBodySchema,
  responses: { 200: okSchema },
  errors: [400, 429],
});

export const verifyMagicCode = defineEndpoint({
  name: 'verifyMagicCode',
  method: 'POST',
  path: '/api/auth/magic-code/verify',
  summary: 'Sign in with an emailed code',
  description: 'Sets the session cookie.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: magicCodeVerifyBodySchema,
  responses: { 200: sessionResponseSchema },
  errors: [400, 429],
});

export const verifyEmail = defineEndpoint({
  name: 'verifyEmail',
  method: 'POST',
  path: '/api/auth/verify-email',
  summary: "Confirm the signed-in account's email address with the emailed 6-digit code",
  description:
    "The code is the one accepting an invitation mails to an account that has not proven its address (an account made by emailed code, link or a provider has). Limited and locked out like sign-in codes; 400 'Invalid or expired OTP code' for a wrong one.",
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: z.object({ code: otpSchema }),
  responses: { 200: okSchema },
  errors: [400, 401, 429],
});

export const openMagicLink = defineEndpoint({
  name: 'openMagicLink',
  method: 'GET',
  path: '/api/auth/magic-code/link',
  summary: 'Old emailed link: opens the page that asks before signing in',
  description: 'Never signs in on a GET; without a token it opens the sign-in page with an error.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  query: z.object({ token: z.string().max(200).optional() }),
  responses: { 302: redirect('To the page that asks before signing in.') },
  errors: [400],
});

export const getMagicLinkDetails = defineEndpoint({
  name: 'getMagicLinkDetails',
  method: 'POST',
  path: '/api/auth/magic-code/link/details',
  summary: 'Whom an emailed link signs in (does not use it up)',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: magicLinkBodySchema,
  responses: { 200: magicLinkDetailsSchema },
  errors: [400],
});

export const signInWithMagicLink = defineEndpoint({
  name: 'signInWithMagicLink',
  method: 'POST',
  path: '/api/auth/magic-code/link',
  summary: 'Sign in with an emailed link, once',
  description:
    'Needs an Origin header (no page elsewhere may sign a visitor in). Sets the session cookie.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: magicLinkBodySchema,
  responses: { 200: sessionResponseSchema },
  errors: [400, 403, 429],
});

export const startSocialSignIn = defineEndpoint({
  name: 'startSocialSignIn',
  method: 'POST',
  path: '/api/auth/social/:provider',
  summary:
    "Start signing in with Google, Apple or single sign-on (`oidc`): the provider's sign-in URL to open",
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: providerParams,
  body: socialSignInBodySchema,
  responses: { 200: z.object({ url: z.string() }) },
  errors: [400, 502, 503],
});

export const changePassword = defineEndpoint({
  name: 'changePassword',
  method: 'POST',
  path: '/api/auth/change-password',
  summary: 'Change your password (other sessions are signed out)',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.credentials },
  body: changePasswordBodySchema,
  responses: { 200: okSchema },
  errors: [400, 401, 403],
});

export const signOutOtherSessions = defineEndpoint({
  name: 'signOutOtherSessions',
  method: 'POST',
  path: '/api/auth/sign-out-others',
  summary: 'Sign out every other session and desktop app; how many were ended',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: z.object({ ok: z.literal(true), revoked: z.number() }) },
  errors: [401, 429],
});

export const oauthCallback = defineEndpoint({
  name: 'oauthCallback',
  method: 'GET',
  path: '/api/auth/callback/:provider',
  summary: 'Where Google or single sign-on returns after sign-in (handled by better-auth)',
  description:
    'Called by the provider, not by clients. Sets the session cookie and redirects into the app.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: callbackParams,
  responses: { 302: redirect('Into the app, or to the sign-in page with an error.') },
  errors: [400, 404],
});

export const oauthCallbackPost = defineEndpoint({
  name: 'oauthCallbackPost',
  method: 'POST',
  path: '/api/auth/callback/:provider',
  summary: 'Where Apple returns after sign-in, with a form post (handled by better-auth)',
  description:
    'Called by the provider, not by clients. Sets the session cookie and redirects into the app.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: callbackParams,
  body: binaryBody(['application/x-www-form-urlencoded'], "The provider's form post."),
  responses: { 302: redirect('Into the app, or to the sign-in page with an error.') },
  errors: [400, 404],
});
