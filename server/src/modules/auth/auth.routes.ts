import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { preHandlerAsyncHookHandler } from 'fastify';
import { endpoints, errorBody, OAUTH_ERROR_MESSAGES } from '@takes/contract';
import type { SignupPolicyName } from '@takes/contract';
import type { Auth } from '../../auth/auth';
import { userOf } from '../../auth/guard';
import type { Config } from '../../config';
import { Unauthenticated } from '../../errors';
import { codeOfStatus, HttpError } from '../../http/errors';
import { route } from '../../http/route';
import type { AuthService } from './auth.service';
import { forwardCookies, toFetchHeaders } from './fetch-bridge';
import { MAGIC_LINK_PAGE } from './magic-code.service';

const api = endpoints.auth;

/** A bearer token in the Authorization header or in `?token=` (what audio elements send). */
function carriesBearerToken(request: FastifyRequest): boolean {
  const query = request.query as { token?: unknown } | undefined;
  return request.headers.authorization !== undefined || query?.token !== undefined;
}

function context(request: FastifyRequest) {
  return { headers: toFetchHeaders(request), ip: request.ip };
}

/** Sign-in flows under /api/auth. Only the OAuth callbacks reach better-auth directly. */
const SIGN_IN_FAILED = OAUTH_ERROR_MESSAGES.signInFailed;

/**
 * A provider's return that failed lands on /login?error=<code>: add the sentence the page shows
 * (a refusal of ours, such as the sign-up policy's, already carries its own).
 */
function explainSignInError(location: string): string {
  if (!location.startsWith('/login?')) return location;
  const url = new URL(location, 'http://takes.invalid');
  const code = url.searchParams.get('error');
  if (!code || url.searchParams.get('error_description')) return location;
  const messages: Record<string, string> = OAUTH_ERROR_MESSAGES;
  url.searchParams.set('error_description', messages[code] ?? SIGN_IN_FAILED);
  return `${url.pathname}${url.search}`;
}

export const authRoutes =
  (deps: {
    service: AuthService;
    auth: Auth;
    config: Config;
    requireUser: preHandlerAsyncHookHandler;
    /** The sign-up policy in force (an admin's stored choice, else SIGNUPS). */
    signups: { policy(): Promise<SignupPolicyName> };
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    // Sign in with Apple returns with a form post.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    // Asking who is signed in is not an error: a browser with no session (no credentials at all,
    // or a cookie that matches no live session) gets 200 and no user, so a signed-out page logs
    // nothing. A bearer token that fails keeps its 401: the desktop app and the CLI refresh on it.
    route(app, api.getSession, {}, async (request, reply) => {
      try {
        await deps.requireUser.call(app, request, reply);
      } catch (error) {
        if (error instanceof Unauthenticated && !carriesBearerToken(request))
          return { user: null, expires_at: null };
        throw error;
      }
      const user = userOf(request);
      return service.sessionBody(user.id, user.expiresAt);
    });

    route(app, api.getAuthProviders, {}, async () => {
      const signups = await deps.signups.policy();
      return {
        google: deps.config.oauth.google !== undefined,
        apple: deps.config.oauth.apple !== undefined,
        // A demo account is a new account: offered only while anyone may sign up.
        demo: deps.config.demoEnabled && signups === 'open',
        oidc: deps.config.oidc ? { name: deps.config.oidc.name } : null,
        oidc_only: deps.config.oidc?.only ?? false,
        signups,
      };
    });

    route(app, api.signUpWithEmail, {}, async (request, reply) => {
      const result = await service.signUp(request.body, context(request));
      forwardCookies(reply, result.cookies);
      return result.body;
    });

    route(app, api.signInWithEmail, {}, async (request, reply) => {
      const result = await service.signIn(request.body, context(request));
      forwardCookies(reply, result.cookies);
      return result.body;
    });

    route(app, api.signOut, {}, async (request, reply) => {
      forwardCookies(reply, await service.signOut(toFetchHeaders(request)));
      return { ok: true as const };
    });

    route(app, api.sendMagicCode, {}, async (request) => {
      await service.sendMagicCode(request.body.email, context(request));
      return { ok: true as const };
    });

    route(app, api.verifyMagicCode, {}, async (request, reply) => {
      const result = await service.verifyMagicCode(
        request.body.email,
        request.body.code,
        context(request),
      );
      forwardCookies(reply, result.cookies);
      return result.body;
    });

    route(app, api.verifyEmail, {}, async (request) => {
      await service.verifyEmail(userOf(request), request.body.code, context(request));
      return { ok: true as const };
    });

    // Links in emails sent before the confirm page: open that page, never sign in on a GET.
    route(app, api.openMagicLink, {}, (request, reply) => {
      const token = request.query.token;
      if (!token) return reply.redirect('/login?error=invalid_link');
      return reply.redirect(`${MAGIC_LINK_PAGE}#token=${encodeURIComponent(token)}`);
    });

    route(app, api.getMagicLinkDetails, {}, async (request) => ({
      email: await service.magicLinkEmail(request.body.token),
    }));

    route(app, api.signInWithMagicLink, {}, async (request, reply) => {
      // The CSRF hook refuses a foreign Origin; a sign-in also needs one to be present, so
      // no page elsewhere can sign a visitor into another account.
      if (!request.headers.origin) throw new HttpError(403, 'Cross-site request refused');
      const result = await service.signInWithMagicLink(request.body.token, context(request));
      forwardCookies(reply, result.cookies);
      return result.body;
    });

    route(app, api.startSocialSignIn, {}, async (request, reply) => {
      const { url, cookies } = await service.socialSignInUrl(
        request.params.provider,
        request.body.callback_url,
        toFetchHeaders(request),
      );
      forwardCookies(reply, cookies);
      return { url };
    });

    route(app, api.changePassword, {}, async (request) => {
      await service.changePassword(userOf(request), request.body, toFetchHeaders(request));
      return { ok: true as const };
    });

    route(app, api.signOutOtherSessions, {}, async (request) => ({
      ok: true as const,
      revoked: await service.signOutOthers(userOf(request)),
    }));

    // OAuth providers return here (Apple posts a form); better-auth finishes the sign-in.
    const callback = async (request: FastifyRequest, reply: FastifyReply) => {
      const url = new URL(request.url, deps.config.publicUrl);
      const body =
        request.method === 'POST' && request.body !== undefined
          ? new URLSearchParams(request.body as Record<string, string>).toString()
          : undefined;
      const response = await deps.auth.handler(
        new Request(url, { method: request.method, headers: toFetchHeaders(request), body }),
      );
      forwardCookies(reply, response.headers);
      const location = response.headers.get('location');
      if (location) {
        return reply.redirect(explainSignInError(location), response.status === 301 ? 301 : 302);
      }
      if (response.status >= 400) {
        // better-auth's refusals (an unknown provider, a body it cannot read) in the API's shape.
        const said = (await response.json().catch(() => null)) as { message?: unknown } | null;
        const error = typeof said?.message === 'string' ? said.message : SIGN_IN_FAILED;
        return reply.status(response.status).send(errorBody(codeOfStatus(response.status), error));
      }
      return reply
        .status(response.status)
        .type(response.headers.get('content-type') ?? 'text/plain')
        .send(await response.text());
    };
    route(app, api.oauthCallback, {}, callback);
    route(app, api.oauthCallbackPost, {}, callback);
    return Promise.resolve();
  };
