/**
 * What sign-in and sign-up say, and their limits, without schemas (see `roles.ts`): `auth.ts` adds
 * the schemas and re-exports all of this.
 */
/** Validation messages people see, word for word; the server and the web app share them. */
export const AUTH_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooCommon: 'This password is one of the most common passwords. Please choose another.',
  otpRequired: 'OTP code is required',
  otpDigits: 'OTP must be 6 digits',
  otpInvalid: 'Invalid or expired OTP code',
  signUpNotice: 'Check your email for a confirmation link to complete your registration.',
  magicLinkNotice:
    'Check your email for a magic link to sign in. The link will expire in 10 minutes.',
  authFailed: 'An error occurred during authentication',
  magicLinkFailed: 'An error occurred while sending the magic link',
  tooManyRequests: 'Too many attempts. Please wait a moment and try again.',
  notAuthenticated: 'Not authenticated',
} as const;

/** Who may make an account (SIGNUPS): anyone, people invited (or on an allowed domain), nobody new. */
export const SIGNUP_POLICIES = ['open', 'invite-only', 'closed'] as const;
export type SignupPolicyName = (typeof SIGNUP_POLICIES)[number];

/**
 * What a refused sign-up says (the API's 403 message) and what the sign-in page says in place of
 * 'Sign up', word for word.
 */
export const SIGNUP_MESSAGES = {
  inviteOnly:
    'Sign-ups on this Takes are by invitation only. Ask a member for an invitation or an invite link.',
  closed: 'Sign-ups on this Takes are closed. Ask the admin for an invitation.',
  /** An address on ALLOWED_SIGNUP_DOMAINS signing up with a password, which proves nothing. */
  domainNeedsProof:
    'Your address is welcome here, but it must be proven first: sign up with Magic Link and the code we email you.',
} as const;

/** What the other sign-in and sign-up routes answer (403) when OIDC_ONLY is on. */
export function oidcOnlyMessage(providerName: string): string {
  return `This Takes signs in with ${providerName} only. Use 'Sign in with ${providerName}'.`;
}

/**
 * What the sign-in page says when a provider's return fails (`/login?error=<code>`), by
 * better-auth's error code; any other code says `signInFailed`.
 */
export const OAUTH_ERROR_MESSAGES = {
  signInFailed: 'Sign-in could not be completed. Please try again.',
  state_mismatch:
    'Sign-in could not be completed: the sign-in request was not started in this browser or has expired. Please try again.',
  state_not_found:
    'Sign-in could not be completed: the sign-in request was not started in this browser or has expired. Please try again.',
  invalid_code:
    'Sign-in could not be completed: the sign-in code was refused by the provider (expired or already used). Please try again.',
  unable_to_get_user_info:
    "Sign-in could not be completed: the provider's answer could not be verified. Please try again.",
  account_not_linked:
    'An account with this email already exists, and the provider has not verified that the email is yours. Sign in another way.',
  email_not_found: 'Sign-in could not be completed: the provider did not share an email address.',
  access_denied: 'Sign-in was cancelled at the provider.',
} as const;

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
export const OTP_LENGTH = 6;
