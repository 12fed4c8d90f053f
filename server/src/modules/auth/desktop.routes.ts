import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  desktopDevicesResponseSchema,
  desktopTokenBodySchema,
  errorBodySchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import type { DesktopTokensService } from './desktop-tokens.service';

const tokenPairSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number(),
});
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};
const tags = ['desktop'];

/** Sign-in for the desktop app and the `takes` CLI. */
export const desktopRoutes =
  (deps: {
    service: DesktopTokensService;
    requireUser: preHandlerAsyncHookHandler;
    scheme: string;
  }): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      '/desktop/config',
      {
        schema: {
          tags,
          summary: "The desktop app's deep-link scheme (DESKTOP_SCHEME)",
          response: { 200: z.object({ scheme: z.string() }) },
        },
      },
      () => ({ scheme: deps.scheme }),
    );
    app.post(
      '/desktop/approve',
      {
        schema: {
          tags,
          summary: 'A signed-in person approves a desktop sign-in',
          response: { 200: z.object({ code: z.string() }), ...errors },
        },
        preHandler: deps.requireUser,
      },
      async (request) => ({ code: await deps.service.approve(userOf(request).id) }),
    );
    app.post(
      '/desktop/token',
      {
        schema: {
          tags,
          summary: 'Trade a one-time code for tokens',
          body: desktopTokenBodySchema,
          response: { 200: tokenPairSchema, ...errors },
        },
      },
      (request) =>
        deps.service.exchange(request.body.code, {
          name: request.body.name,
          userAgent: request.headers['user-agent'],
        }),
    );
    app.post(
      '/desktop/refresh',
      {
        schema: {
          tags,
          summary: 'Rotate a refresh token',
          body: z.object({ refreshToken: z.string().min(1, 'Refresh token is required').max(200) }),
          response: { 200: tokenPairSchema, ...errors },
        },
      },
      (request) => deps.service.refresh(request.body.refreshToken),
    );
    app.get(
      '/desktop/tokens',
      {
        schema: {
          tags,
          summary: "The caller's signed-in desktop apps and CLIs",
          response: { 200: desktopDevicesResponseSchema, ...errors },
        },
        preHandler: deps.requireUser,
      },
      async (request) => ({ devices: await deps.service.listDevices(userOf(request).id) }),
    );
    app.delete(
      '/desktop/tokens/:id',
      {
        schema: {
          tags,
          summary: 'Sign out one desktop app or CLI',
          params: z.object({ id: z.string().min(1).max(100) }),
          response: { 204: z.null(), ...errors },
        },
        preHandler: deps.requireUser,
      },
      async (request, reply) => {
        await deps.service.revokeDevice(userOf(request).id, request.params.id);
        return reply.status(204).send(null);
      },
    );
    return Promise.resolve();
  };
