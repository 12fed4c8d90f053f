import { errorBodySchema } from '@takes/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { HttpError } from './errors';
import { sendObject } from './send-object';

/** Serves the local store's signed URLs (S3 serves its own). */
export const storageRoutes =
  (deps: Pick<AppDeps, 'storage' | 'signer' | 'clock'>): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      '/storage/*',
      {
        schema: {
          hide: true,
          params: z.object({ '*': z.string() }),
          querystring: z.object({
            expires: z.string(),
            sig: z.string(),
            name: z.string().optional(),
          }),
          response: { 403: errorBodySchema, 404: errorBodySchema, 416: errorBodySchema },
        },
      },
      async (request, reply) => {
        const key = request.params['*'];
        const now = Math.floor(deps.clock.now().getTime() / 1000);
        if (deps.storage.kind !== 'local' || !deps.signer.verify(key, request.query, now)) {
          throw new HttpError(403, 'This link is invalid or has expired');
        }
        return sendObject(reply, deps.storage, key, request.headers.range, {
          downloadName: request.query.name,
        });
      },
    );
    return Promise.resolve();
  };
