import { APIError } from 'better-auth/api';
import {
  AUTH_MESSAGES,
  CALLBACK_URL_INVALID,
  isSitePath,
  oidcOnlyMessage,
  type SessionResponse,
  type SessionUser,
  type SOCIAL_PROVIDERS,
} from '@takes/contract';
import { sessionCookieName, type Auth } from '../../auth/auth';
import { signedCookieValue } from '../../auth/session-cookie';
import { passwordProblem } from '../../auth/password-policy';
import { AUTH_RATE_RULES, type RateLimiter, type RateRule } from '../../auth/rate-limiter';
import type { Config } from '../../config';
import {
  Conflict,
  Forbidden,
  Internal,
  Invalid,
  RateLimited,
  Unauthenticated,
  Unavailable,
  UpstreamFailed,
} from '../../errors';
import { avatarUrl } from '../profiles';
import { translateAuthError as translate } from './auth-errors';
import { liveSessionOf, sessionTokenOf, type AuthenticatedUser } from './cookie-session';
import type { AuthRepo } from './auth.repo';
import type { DesktopTokensService } from './desktop-tokens.service';
import type { MagicCodeService } from './magic-code.service';

type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
const PROVIDER_NAMES = { google: 'Google', apple: 'Apple' } as const;

export interface RequestContext {
  headers: Headers;
  ip: string;
}

export type { AuthenticatedUser };

export interface AuthResult {
  cookies: Headers;
  body: SessionResponse;
}

/** Sign-up, sign-in, magic codes, sessions: better-auth underneath, our rules on top. */
export class AuthService {
  constructor(
    private readonly deps: {
      auth: Auth;
      repo: AuthRepo;
      limiter: RateLimiter;
      magic: MagicCodeService;
      desktop: DesktopTokensService;
      config: Config;
      /** The key better-auth signs its cookies with. */
      secret: string;
    },
  ) {
    this.sessionCookie = sessionCookieName(deps.config);
  }

  private readonly sessionCookie: string;

  /** The caller, from `Authorization: Bearer` (desktop, CLI) or the session cookie (web). */
  async currentUser(headers: Headers): Promise<AuthenticatedUser | null> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1];
    if (bearer) {
      const token = await this.deps.desktop.userForAccessToken(bearer);
      if (!token) return null;
      const user = await this.deps.repo.findUser(token.userId);
      return user
        ? {
            id: user.id,
            email: user.email,
            sessionToken: '',
            tokenFamilyId: token.familyId,
            expiresAt: new Date(token.expiresAt).toISOString(),
          }
        : null;
    }
    const direct = await this.sessionFromCookies(headers.get('cookie'));
    if (direct !== undefined) return direct;
    const found = await this.deps.auth.api.getSession({ headers });
    if (!found) return null;
    return {
      id: found.user.id,
      email: found.user.email,
      sessionToken: found.session.token,
      tokenFamilyId: null,
      expiresAt: new Date(found.session.expiresAt).toISOString(),
    };
  }

  /**
   * The cookie session in one query, for the common case: a valid signature and a live session
   * that needs no renewal. `undefined` hands the request to better-auth's getSession, which owns
   * everything else (renewing a session a day old, removing an expired one, 'don't remember me').
   * Revocation takes effect at once: the row is read on every request, nothing is cached.
   */
  async sessionFromCookies(cookies: string | null): Promise<AuthenticatedUser | null | undefined> {
    const token = this.cookieSessionToken(cookies);
    if (token === null || token === undefined) return token;
    const row = await this.deps.repo.sessionWithUser(token);
    if (!row) return null;
    return this.liveCookieSession(token, row);
  }

  /**
   * Whether a request's cookies hold a live session: a signed session cookie whose session row
   * exists (not signed out, not revoked) and has not expired. One query; nothing is renewed or
   * removed (the app's own session request does that).
   */
  async hasLiveSession(cookies: string | null): Promise<boolean> {
    const token = signedCookieValue(cookies, this.sessionCookie, this.deps.secret);
    if (token === null || token === false) return false;
    const row = await this.deps.repo.sessionWithUser(token);
    return row !== undefined && new Date(row.expires_at).getTime() > Date.now();
  }

  /** The session token of a request's cookies when the one-query path can judge it (`sessionTokenOf`). */
  cookieSessionToken(cookies: string | null): string | null | undefined {
    return sessionTokenOf(cookies, this.sessionCookie, this.deps.secret);
  }

  /** The signed-in user of a live session row, or undefined for better-auth (`liveSessionOf`). */
  liveCookieSession(
    token: string,
    row: { user_id: string; email: string; expires_at: string | Date },
  ): AuthenticatedUser | undefined {
    return liveSessionOf(token, row);
  }

  async sessionBody(userId: string, expiresAt: string): Promise<SessionResponse> {
    return { user: await this.sessionUser(userId), expires_at: expiresAt };
  }

  async sessionUser(userId: string): Promise<SessionUser> {
    const row = await this.deps.repo.sessionUserRow(userId);
    return {
      id: row.id,
      email: row.email,
      name: row.name.trim() === '' ? null : row.name,
      display_name: row.display_name,
      avatar_url: row.avatar_key ? avatarUrl(row.id, row.updated_at) : null,
    };
  }

  async signUp(
    input: { email: string; password: string; name?: string | undefined },
    ctx: RequestContext,
  ): Promise<AuthResult> {
    this.refuseUnlessOidcOnlyIsOff();
    await this.limit(AUTH_RATE_RULES.signUpIp, ctx.ip);
    await this.limit(AUTH_RATE_RULES.signUpEmail, input.email);
    const problem = passwordProblem(input.password);
    if (problem) throw new Invalid(problem);
    try {
      const { headers, response } = await this.deps.auth.api.signUpEmail({
        body: { email: input.email, password: input.password, name: input.name ?? '' },
        headers: ctx.headers,
        returnHeaders: true,
      });
      return { cookies: headers, body: await this.bodyForToken(response.user.id, response.token) };
    } catch (error) {
      if (
        error instanceof APIError &&
        error.body?.code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'
      ) {
        throw new Conflict('An account with this email already exists. Sign in instead.');
      }
      if (error instanceof APIError && error.body?.code === 'USER_ALREADY_EXISTS') {
        throw new Conflict('An account with this email already exists. Sign in instead.');
      }
      throw translate(error);
    }
  }

  async signIn(
    input: { email: string; password: string },
    ctx: RequestContext,
  ): Promise<AuthResult> {
    this.refuseUnlessOidcOnlyIsOff();
    await this.limit(AUTH_RATE_RULES.signInIp, ctx.ip);
    await this.limit(AUTH_RATE_RULES.signInEmail, input.email);
    try {
      const { headers, response } = await this.deps.auth.api.signInEmail({
        body: { email: input.email, password: input.password },
        headers: ctx.headers,
        returnHeaders: true,
      });
      return { cookies: headers, body: await this.bodyForToken(response.user.id, response.token) };
    } catch (error) {
      if (error instanceof APIError && error.statusCode === 401) {
        throw new Unauthenticated('Invalid email or password');
      }
      throw translate(error);
    }
  }

  async signOut(headers: Headers): Promise<Headers> {
    try {
      const result = await this.deps.auth.api.signOut({ headers, returnHeaders: true });
      return result.headers;
    } catch (error) {
      throw translate(error);
    }
  }

  async sendMagicCode(email: string, ctx: RequestContext): Promise<void> {
    this.refuseUnlessOidcOnlyIsOff();
    await this.limit(AUTH_RATE_RULES.codeSendIp, ctx.ip);
    if (!(await this.deps.limiter.hit(AUTH_RATE_RULES.codeSendEmail, email))) {
      throw new RateLimited(
        'A code was sent to this address less than a minute ago. Please wait before asking for another.',
      );
    }
    // Known or unknown, the answer is the same: the first sign-in creates the account.
    await this.deps.magic.send(email);
  }

  async verifyMagicCode(email: string, code: string, ctx: RequestContext): Promise<AuthResult> {
    this.refuseUnlessOidcOnlyIsOff();
    await this.limit(AUTH_RATE_RULES.codeVerifyIp, ctx.ip);
    await this.limit(AUTH_RATE_RULES.codeVerifyEmail, email);
    if (!(await this.deps.magic.verifyCode(email, code)))
      throw new Invalid(AUTH_MESSAGES.otpInvalid);
    return this.signInProven(email, ctx.headers);
  }

  /** Whether the account has proven its address (accepting an invitation asks first). */
  isEmailVerified(userId: string): Promise<boolean> {
    return this.deps.repo.emailVerified(userId);
  }

  /**
   * Emails a signed-in person a 6-digit code proving their address, limited like sign-in codes:
   * over the client address's limit 429; within a minute of the last one to this address nothing
   * is sent ('recent': that code still works).
   */
  async sendAddressCheck(email: string, ip: string): Promise<'sent' | 'recent'> {
    await this.limit(AUTH_RATE_RULES.codeSendIp, ip);
    if (!(await this.deps.limiter.hit(AUTH_RATE_RULES.codeSendEmail, email))) return 'recent';
    await this.deps.magic.sendAddressCheck(email);
    return 'sent';
  }

  /**
   * Proves the signed-in caller's address with the emailed code (the sign-in code's limits and
   * lock-outs apply); a wrong or expired code is refused with 400.
   */
  async verifyEmail(user: AuthenticatedUser, code: string, ctx: RequestContext): Promise<void> {
    await this.limit(AUTH_RATE_RULES.codeVerifyIp, ctx.ip);
    await this.limit(AUTH_RATE_RULES.codeVerifyEmail, user.email);
    if (!(await this.deps.magic.verifyCode(user.email, code)))
      throw new Invalid(AUTH_MESSAGES.otpInvalid);
    await this.deps.repo.markEmailVerified(user.id, user.email);
  }

  /** Whom an emailed link would sign in, for its page to ask first; it stays unused. */
  async magicLinkEmail(token: string): Promise<string> {
    const email = await this.deps.magic.peekLink(token);
    if (!email) throw new Invalid(AUTH_MESSAGES.otpInvalid);
    return email;
  }

  /** Signs in with an emailed link, once, after its page asked. */
  async signInWithMagicLink(token: string, ctx: RequestContext): Promise<AuthResult> {
    this.refuseUnlessOidcOnlyIsOff();
    const email = await this.deps.magic.consumeLink(token);
    if (!email) throw new Invalid(AUTH_MESSAGES.otpInvalid);
    return this.signInProven(email, ctx.headers);
  }

  async socialSignInUrl(
    provider: SocialProvider,
    callbackURL: string,
    headers: Headers,
  ): Promise<{ url: string; cookies: Headers }> {
    // The provider sends the visitor back here: a path that no browser reads as another site.
    if (!isSitePath(callbackURL)) throw new Invalid(CALLBACK_URL_INVALID);
    const { config } = this.deps;
    const name = provider === 'oidc' ? config.oidc?.name : PROVIDER_NAMES[provider];
    if (provider === 'oidc' ? !config.oidc : !config.oauth[provider]) {
      throw new Unavailable(
        provider === 'oidc'
          ? 'Single sign-on is not configured on this server'
          : `${name} sign-in is not configured on this server`,
      );
    }
    if (provider !== 'oidc') this.refuseUnlessOidcOnlyIsOff();
    try {
      const { headers: cookies, response } = await this.deps.auth.api.signInSocial({
        body: {
          provider,
          callbackURL,
          errorCallbackURL: '/login',
          disableRedirect: true,
        },
        headers,
        returnHeaders: true,
      });
      if (!response.url) throw new UpstreamFailed(`An error occurred during ${name} sign in`);
      return { url: response.url, cookies };
    } catch (error) {
      throw translate(error);
    }
  }

  /** OIDC_ONLY: people sign in through single sign-on alone (the desktop app goes through it too). */
  private refuseUnlessOidcOnlyIsOff(): void {
    const { oidc } = this.deps.config;
    if (oidc?.only) throw new Forbidden(oidcOnlyMessage(oidc.name));
  }

  /** Changes the password; every desktop and CLI sign-in then ends (recovery). */
  async changePassword(
    user: AuthenticatedUser,
    input: { current_password: string; new_password: string },
    headers: Headers,
  ): Promise<void> {
    const problem = passwordProblem(input.new_password);
    if (problem) throw new Invalid(problem);
    try {
      await this.deps.auth.api.changePassword({
        body: {
          currentPassword: input.current_password,
          newPassword: input.new_password,
          revokeOtherSessions: false,
        },
        headers,
      });
    } catch (error) {
      if (error instanceof APIError && error.body?.code === 'INVALID_PASSWORD') {
        throw new Invalid('Current password is incorrect');
      }
      if (error instanceof APIError && error.body?.code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') {
        throw new Invalid(
          'This account signs in with an emailed code or a social account and has no password',
        );
      }
      throw translate(error);
    }
    // Recovery: whoever knew the old password may hold a token; none is kept.
    await this.deps.desktop.revokeAllForUser(user.id);
  }

  /**
   * Ends every other cookie session and every other desktop/CLI sign-in; answers how many
   * ended. The caller's own session (or own token family) stays.
   */
  async signOutOthers(user: AuthenticatedUser): Promise<number> {
    const sessions = await this.deps.repo.deleteOtherSessions(user.id, user.sessionToken);
    const devices = await this.deps.desktop.revokeAllForUser(
      user.id,
      user.tokenFamilyId ?? undefined,
    );
    return sessions + devices;
  }

  private async signInProven(email: string, headers: Headers): Promise<AuthResult> {
    try {
      const { headers: cookies, response } = await this.deps.auth.api.signInProvenEmail({
        body: { email },
        headers,
        returnHeaders: true,
      });
      return { cookies, body: await this.bodyForToken(response.userId, response.token) };
    } catch (error) {
      throw translate(error);
    }
  }

  private async bodyForToken(
    userId: string,
    token: string | null | undefined,
  ): Promise<SessionResponse> {
    const session = token ? await this.deps.repo.sessionByToken(token) : undefined;
    if (!session) throw new Internal(AUTH_MESSAGES.authFailed);
    return this.sessionBody(userId, new Date(session.expires_at).toISOString());
  }

  private async limit(rule: RateRule, subject: string): Promise<void> {
    if (!(await this.deps.limiter.hit(rule, subject)))
      throw new RateLimited(AUTH_MESSAGES.tooManyRequests);
  }
}
