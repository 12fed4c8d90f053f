import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authProvidersSchema,
  errorBodySchema,
  magicCodeSendBodySchema,
  magicCodeVerifyBodySchema,
  magicLinkBodySchema,
  magicLinkDetailsSchema,
  passwordSchema,
  sessionResponseSchema,
  signInBodySchema,
  signUpBodySchema,
} from '@takes/contract';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Auth } from '../../auth/auth';
import { userOf } from '../../auth/guard';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { AuthService } from './auth.service';
import { forwardCookies, toFetchHeaders } from './fetch-bridge';
import { MAGIC_LINK_PAGE } from './magic-code.service';

const ok = z.object({ ok: z.literal(true) });
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};
const tags = ['auth'];

function context(request: FastifyRequest) {
  return { headers: toFetchHeaders(request), ip: request.ip };
}

/** Sign-in flows under /api/auth. Only the OAuth callbacks reach better-auth directly. */
export const authRoutes =
  (deps: {
    service: AuthService;
    auth: Auth;
    config: Config;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsyncZod =>
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

    app.get(
      '/auth/session',
      {
        schema: { tags, response: { 200: sessionResponseSchema, 401: errorBodySchema } },
        preHandler: deps.requireUser,
      },
      async (request) => {
        const user = userOf(request);
        return service.sessionBody(user.id, user.expiresAt);
      },
    );

    app.get(
      '/auth/providers',
      { schema: { tags, response: { 200: authProvidersSchema } } },
      () => ({
        google: deps.config.oauth.google !== undefined,
        apple: deps.config.oauth.apple !== undefined,
        demo: deps.config.demoEnabled,
      }),
    );

    app.post(
      '/auth/sign-up/email',
      {
        schema: {
          tags,
          body: signUpBodySchema,
          response: { 200: sessionResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await service.signUp(request.body, context(request));
        forwardCookies(reply, result.cookies);
        return result.body;
      },
    );

    app.post(
      '/auth/sign-in/email',
      {
        schema: {
          tags,
          body: signInBodySchema,
          response: { 200: sessionResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await service.signIn(request.body, context(request));
        forwardCookies(reply, result.cookies);
        return result.body;
      },
    );

    app.post(
      '/auth/sign-out',
      { schema: { tags, response: { 200: ok, ...errors } } },
      async (request, reply) => {
        forwardCookies(reply, await service.signOut(toFetchHeaders(request)));
        return { ok: true as const };
      },
    );

    app.post(
      '/auth/magic-code/send',
      { schema: { tags, body: magicCodeSendBodySchema, response: { 200: ok, ...errors } } },
      async (request) => {
        await service.sendMagicCode(request.body.email, context(request));
        return { ok: true as const };
      },
    );

    app.post(
      '/auth/magic-code/verify',
      {
        schema: {
          tags,
          body: magicCodeVerifyBodySchema,
          response: { 200: sessionResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await service.verifyMagicCode(
          request.body.email,
          request.body.code,
          context(request),
        );
        forwardCookies(reply, result.cookies);
        return result.body;
      },
    );

    // Links in emails sent before the confirm page: open that page, never sign in on a GET.
    app.get(
      '/auth/magic-code/link',
      {
        schema: {
          tags,
          summary: 'Old emailed link: opens the page that asks before signing in',
          querystring: z.object({ token: z.string().max(200).optional() }),
        },
      },
      (request, reply) => {
        const token = request.query.token;
        if (!token) return reply.redirect('/login?error=invalid_link');
        return reply.redirect(`${MAGIC_LINK_PAGE}#token=${encodeURIComponent(token)}`);
      },
    );

    app.post(
      '/auth/magic-code/link/details',
      {
        schema: {
          tags,
          summary: 'Whom an emailed link signs in (does not use it up)',
          body: magicLinkBodySchema,
          response: { 200: magicLinkDetailsSchema, ...errors },
        },
      },
      async (request) => ({ email: await service.magicLinkEmail(request.body.token) }),
    );

    app.post(
      '/auth/magic-code/link',
      {
        schema: {
          tags,
          summary: 'Sign in with an emailed link, once',
          body: magicLinkBodySchema,
          response: { 200: sessionResponseSchema, 403: errorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        // The CSRF hook refuses a foreign Origin; a sign-in also needs one to be present, so
        // no page elsewhere can sign a visitor into another account.
        if (!request.headers.origin) throw new HttpError(403, 'Cross-site request refused');
        const result = await service.signInWithMagicLink(request.body.token, context(request));
        forwardCookies(reply, result.cookies);
        return result.body;
      },
    );

    app.post(
      '/auth/social/:provider',
      {
        schema: {
          tags,
          params: z.object({ provider: z.enum(['google', 'apple']) }),
          body: z
            .object({
              callbackURL: z
                .string()
                .regex(/^\/(?!\/)/, 'callbackURL must be a path on this site')
                .default('/dashboard'),
            })
            .default({ callbackURL: '/dashboard' }),
          response: { 200: z.object({ url: z.string() }), ...errors },
        },
      },
      async (request, reply) => {
        const { url, cookies } = await service.socialSignInUrl(
          request.params.provider,
          request.body.callbackURL,
          toFetchHeaders(request),
        );
        forwardCookies(reply, cookies);
        return { url };
      },
    );

    app.post(
      '/auth/change-password',
      {
        schema: {
          tags,
          body: z.object({
            currentPassword: z.string().min(1, 'Password is required'),
            newPassword: passwordSchema,
          }),
          response: { 200: ok, ...errors },
        },
        preHandler: deps.requireUser,
      },
      async (request) => {
        await service.changePassword(userOf(request), request.body, toFetchHeaders(request));
        return { ok: true as const };
      },
    );

    app.post(
      '/auth/sign-out-others',
      {
        schema: {
          tags,
          response: { 200: z.object({ ok: z.literal(true), revoked: z.number() }), ...errors },
        },
        preHandler: deps.requireUser,
      },
      async (request) => {
        return { ok: true as const, revoked: await service.signOutOthers(userOf(request)) };
      },
    );

    // OAuth providers return here (Apple posts a form); better-auth finishes the sign-in.
    app.route({
      method: ['GET', 'POST'],
      url: '/auth/callback/:provider',
      schema: { hide: true },
      handler: async (request, reply) => {
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
        if (location) return reply.redirect(location, response.status === 301 ? 301 : 302);
        return reply
          .status(response.status)
          .type(response.headers.get('content-type') ?? 'text/plain')
          .send(await response.text());
      },
    });
    return Promise.resolve();
  };
