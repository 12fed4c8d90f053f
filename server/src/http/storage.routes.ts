import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import type { AppDeps } from '../deps';
import { HttpError } from './errors';
import { route } from './route';
import { sendObject } from './send-object';

/** Serves the local store's signed URLs (S3 serves its own). */
export const storageRoutes =
  (deps: Pick<AppDeps, 'storage' | 'signer' | 'clock'>): FastifyPluginAsync =>
  (app) => {
    route(app, endpoints.storage.getStoredObject, {}, async (request, reply) => {
      const key = request.params['*'];
      const now = Math.floor(deps.clock.now().getTime() / 1000);
      if (deps.storage.kind !== 'local' || !deps.signer.verify(key, request.query, now)) {
        throw new HttpError(403, 'This link is invalid or has expired');
      }
      return sendObject(reply, deps.storage, key, request.headers.range, {
        downloadName: request.query.name,
      });
    });
    return Promise.resolve();
  };
