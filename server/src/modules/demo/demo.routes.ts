import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, sessionResponseSchema } from '@takes/contract';
import { forwardCookies, toFetchHeaders } from '../auth/fetch-bridge';
import type { DemoService } from './demo.service';

/** 'Try demo': a fresh demo account of the caller's own, signed in. */
export const demoRoutes =
  (deps: { service: DemoService }): FastifyPluginAsyncZod =>
  (app) => {
    app.post(
      '/auth/demo',
      {
        schema: {
          tags: ['auth'],
          summary: 'Create a demo account of your own (deleted after 24 hours) and sign in',
          response: {
            200: sessionResponseSchema,
            404: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const result = await deps.service.start({
          headers: toFetchHeaders(request),
          ip: request.ip,
        });
        forwardCookies(reply, result.cookies);
        return result.body;
      },
    );
    return Promise.resolve();
  };
