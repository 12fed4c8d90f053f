import { z } from 'zod';
import {
  AUTH_MESSAGES,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  SIGNUP_POLICIES,
} from './auth-messages';

export * from './auth-messages';

export const emailSchema = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email(AUTH_MESSAGES.emailInvalid))
  .transform((email) => email.toLowerCase());

export const passwordSchema = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(MIN_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const otpSchema = z
  .string({ error: AUTH_MESSAGES.otpRequired })
  .trim()
  .min(1, AUTH_MESSAGES.otpRequired)
  .regex(/^\d{6}$/, AUTH_MESSAGES.otpDigits);

export const signUpBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string().trim().max(100).optional(),
});
export type SignUpBody = z.input<typeof signUpBodySchema>;

export const signInBodySchema = z.object({ email: emailSchema, password: passwordSchema });
export type SignInBody = z.input<typeof signInBodySchema>;

export const magicCodeSendBodySchema = z.object({ email: emailSchema });
export const magicCodeVerifyBodySchema = z.object({ email: emailSchema, code: otpSchema });

export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** The full name, when the person gave one. */
  name: z.string().nullable(),
  display_name: z.string().nullable(),
  avatar_url: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionResponseSchema = z.object({
  user: sessionUserSchema,
  expires_at: z.string(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** The session probe's answer when nobody is signed in: not an error, just no user. */
export const signedOutSessionSchema = z.object({ user: z.null(), expires_at: z.null() });
export type SignedOutSession = z.infer<typeof signedOutSessionSchema>;

/** GET /api/auth/session: the signed-in session, or `{ user: null, expires_at: null }`. */
export const sessionProbeSchema = z.union([sessionResponseSchema, signedOutSessionSchema]);
export type SessionProbe = z.infer<typeof sessionProbeSchema>;

export const signupPolicySchema = z.enum(SIGNUP_POLICIES);

export const authProvidersSchema = z.object({
  google: z.boolean(),
  apple: z.boolean(),
  /** Whether 'Try demo' is on (DEMO_ENABLED). */
  demo: z.boolean(),
  /** Single sign-on (OIDC_*): the provider's name for 'Sign in with …', or null when off. */
  oidc: z.object({ name: z.string() }).nullable(),
  /** OIDC_ONLY: the sign-in page offers single sign-on alone. */
  oidc_only: z.boolean(),
  /** Who may make an account now (SIGNUPS, or what an admin stored over it). */
  signups: signupPolicySchema,
});
export type AuthProviders = z.infer<typeof authProvidersSchema>;

// Desktop app and `takes` CLI sign-ins.
export const DEVICE_NAME_MAX_LENGTH = 100;

export const desktopTokenBodySchema = z.object({
  code: z.string().min(1, 'Code is required').max(200),
  /** How the device calls itself, e.g. 'takes CLI on studio-mac'; shown on /settings. */
  name: z
    .string()
    .max(DEVICE_NAME_MAX_LENGTH, `Device name must be at most ${DEVICE_NAME_MAX_LENGTH} characters`)
    .optional(),
});
export type DesktopTokenBody = z.input<typeof desktopTokenBodySchema>;

/** One signed-in desktop app or CLI (a token family). */
export const desktopDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
});
export type DesktopDevice = z.infer<typeof desktopDeviceSchema>;

export const desktopDevicesResponseSchema = z.object({ devices: z.array(desktopDeviceSchema) });
export type DesktopDevicesResponse = z.infer<typeof desktopDevicesResponseSchema>;

// The emailed sign-in link: the page asks before it signs in.
export const magicLinkBodySchema = z.object({
  token: z.string().min(1, AUTH_MESSAGES.otpInvalid).max(200, AUTH_MESSAGES.otpInvalid),
});
export type MagicLinkBody = z.input<typeof magicLinkBodySchema>;

export const magicLinkDetailsSchema = z.object({ email: z.string() });
export type MagicLinkDetails = z.infer<typeof magicLinkDetailsSchema>;

/** What a desktop code exchange or a refresh hands out. */
export const desktopTokenPairSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
});
export type DesktopTokenPair = z.infer<typeof desktopTokenPairSchema>;

export const desktopRefreshBodySchema = z.object({
  refresh_token: z.string().min(1, 'Refresh token is required').max(200),
});

export const changePasswordBodySchema = z.object({
  current_password: z.string().min(1, 'Password is required'),
  new_password: passwordSchema,
});

/** Sign-in through a provider: Google, Apple, and single sign-on (`oidc`, OIDC_*). */
export const SOCIAL_PROVIDERS = ['google', 'apple', 'oidc'] as const;

/**
 * A backslash (browsers read `/\evil.com` as `//evil.com`), its escape, or a control character
 * (a tab or newline is dropped by URL parsing, so `/<tab>/evil.com` is `//evil.com` too).
 */
function hasUnsafeCharacter(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return /%5c/i.test(path);
}

function isPlainSitePath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !hasUnsafeCharacter(path);
}

/**
 * Whether `path` is a path on this site that no browser reads as another origin: one leading
 * `/`, no backslash or control character, and the same once percent-decoded (where a router or
 * a later redirect decodes it). The server's sign-in callback and the web's return-to share it.
 */
export function isSitePath(path: unknown): path is string {
  if (typeof path !== 'string' || !isPlainSitePath(path)) return false;
  try {
    return isPlainSitePath(decodeURIComponent(path));
  } catch {
    return false; // A broken escape.
  }
}

export const CALLBACK_URL_INVALID = 'callback_url must be a path on this site, such as /dashboard';

/** Where to return after a provider's sign-in: a path on this site. */
export const socialSignInBodySchema = z
  .object({
    callback_url: z
      .string()
      .max(2000, 'callback_url is too long')
      .refine(isSitePath, CALLBACK_URL_INVALID)
      .default('/dashboard'),
  })
  .default({ callback_url: '/dashboard' });
