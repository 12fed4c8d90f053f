import { betterAuth } from 'better-auth';
import { genericOAuth } from 'better-auth/plugins';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/database';
import { provenEmailSignIn, type ProvenEmailSignInOptions } from './magic-code.plugin';
import { hashPassword, verifyPassword } from './password-hash';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@takes/contract';

export const SESSION_COOKIE_PREFIX = 'takes';
/**
 * The request header that carries the client address Fastify resolved (request.ip, which honours
 * TRUST_PROXY) into better-auth. app.ts sets it on every request, overwriting any client value.
 */
export const CLIENT_IP_HEADER = 'x-takes-client-ip';
const DAY = 24 * 60 * 60;
/** A cookie session lasts 30 days and is renewed when used a day or more after its last renewal. */
export const SESSION_EXPIRES_IN_SECONDS = 30 * DAY;
export const SESSION_UPDATE_AGE_SECONDS = DAY;

/** The session cookie's name: `__Secure-` in front where the public URL is https (better-auth's rule). */
export function sessionCookieName(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl.startsWith('https://') ? '__Secure-' : ''}${SESSION_COOKIE_PREFIX}.session_token`;
}

/** better-auth's id for single sign-on: its callback is /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = 'oidc';

/**
 * Single sign-on through better-auth's generic OAuth plugin: endpoints from the issuer's discovery
 * document, authorization code with PKCE, `state` kept server-side and bound to a cookie. With
 * `requireIdTokenVerification` the plugin verifies the ID token against the issuer's JWKS (issuer,
 * audience = our client id, signature, expiry) and binds a `nonce` to the flow; a provider whose
 * discovery offers no JWKS is skipped rather than trusted unverified.
 */
function oidcPlugin(oidc: NonNullable<Config['oidc']>) {
  return genericOAuth({
    config: [
      {
        providerId: OIDC_PROVIDER_ID,
        name: oidc.name,
        discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        scopes: oidc.scopes,
        pkce: true,
        requireIdTokenVerification: true,
      },
    ],
  });
}

/** What the rest of the server decides when better-auth makes an account or a session. */
export interface AuthHooks extends ProvenEmailSignInOptions {
  /**
   * Before any new account is written, whatever the path (email and password, emailed code or
   * link, Google, Apple, single sign-on): throw (an HttpError 403) to refuse it. The headers are
   * the request's, when there is one (an invite link's cookie rides on them).
   */
  beforeUserCreate?: (
    user: { email: string; emailVerified: boolean },
    headers: Headers | undefined,
  ) => Promise<void>;
  /** Before any cookie session is made: throw to refuse it (a disabled account). */
  beforeSessionCreate?: (userId: string) => Promise<void>;
}

/**
 * better-auth owns users, password and social accounts, and cookie sessions. Telemetry
 * is off. Its routes live under /api/auth; the flows with our own rules (validation
 * messages, common passwords, magic codes, rate limits) wrap it in modules/auth.
 */
export function createAuth(
  config: Config,
  database: DatabaseHandle,
  secret: string,
  hooks: AuthHooks = {},
) {
  const https = config.publicUrl.startsWith('https://');
  return betterAuth({
    appName: 'Takes',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    telemetry: { enabled: false },
    // Its errors surface through our error handler; tests need no console noise.
    logger: { disabled: config.env === 'test' },
    plugins: [provenEmailSignIn(hooks), ...(config.oidc ? [oidcPlugin(config.oidc)] : [])],
    // A failed provider return (a wrong state, an unknown provider) lands on the sign-in page.
    onAPIError: { errorURL: '/login' },
    database: { db: database.authDb, type: database.dialect },
    // Same-site check: the app's public URL, plus the origin the request itself came to
    // (a server reached as 127.0.0.1 and as localhost is still one site).
    trustedOrigins: (request) => {
      const origins = [new URL(config.publicUrl).origin];
      const host = request?.headers.get('host');
      if (host) origins.push(`${https ? 'https' : 'http'}://${host}`);
      return origins;
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      requireEmailVerification: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      password: {
        hash: hashPassword,
        verify: ({ hash, password }) => verifyPassword(password, hash),
      },
    },
    socialProviders: {
      ...(config.oauth.google && {
        google: {
          clientId: config.oauth.google.clientId,
          clientSecret: config.oauth.google.clientSecret,
          accessType: 'offline' as const,
          prompt: 'consent' as const,
        },
      }),
      ...(config.oauth.apple && {
        apple: {
          clientId: config.oauth.apple.clientId,
          clientSecret: config.oauth.apple.clientSecret,
          appBundleIdentifier: config.oauth.apple.appBundleIdentifier,
        },
      }),
    },
    session: {
      modelName: 'sessions',
      expiresIn: SESSION_EXPIRES_IN_SECONDS,
      // Rolling expiry: a session used after a day gets a fresh 30 days.
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      fields: {
        expiresAt: 'expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
      },
    },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    account: {
      modelName: 'accounts',
      // Google and Apple only vouch for addresses they own. Single sign-on is not trusted by name:
      // it links to an existing account only when its ID token says `email_verified: true` and the
      // account's own address is proven too (requireLocalEmailVerified), so a provider that lets
      // anyone type any address cannot take over an account, nor can a stranger's unproven sign-up
      // wait for the owner's sign-in. An unverified match is refused ('account_not_linked').
      accountLinking: {
        enabled: true,
        trustedProviders: ['google', 'apple'],
        requireLocalEmailVerified: true,
      },
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    verification: {
      modelName: 'verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user, context) => {
            await hooks.beforeUserCreate?.(
              { email: user.email.toLowerCase(), emailVerified: user.emailVerified },
              context?.headers ?? context?.request?.headers,
            );
          },
        },
      },
      session: {
        create: {
          before: async (session) => {
            await hooks.beforeSessionCreate?.(session.userId);
          },
        },
      },
    },
    // Our own limiter (per IP and per email, shared in the database) guards these routes.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: https, path: '/' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => crypto.randomUUID() },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
