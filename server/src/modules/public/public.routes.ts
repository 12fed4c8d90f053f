import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { endpoints, errorBody, SHARE_MESSAGES } from '@takes/contract';
import { route } from '../../http/route';
import { sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { PROCESSING_RETRY_AFTER_SECONDS } from '../sharing';
import type { PublicService } from './public.service';

const api = endpoints.publicPages;

/** Search engines may index a Public project's answers only when its owner listed it. */
const ROBOTS = 'x-robots-tag';

function indexableIf(reply: FastifyReply, listed: boolean): void {
  if (listed) reply.removeHeader(ROBOTS);
}

/**
 * A Public project's read-only page and its standard-quality audio, for anyone (no sign-in).
 * Every answer, a refusal included, carries `X-Robots-Tag: noindex` unless the project is listed.
 */
export const publicRoutes =
  (deps: { service: PublicService; storage: ObjectStore }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header(ROBOTS, 'noindex');
      done();
    });

    route(app, api.getPublicProject, {}, async (request, reply) => {
      const page = await service.project(request.params.projectId);
      indexableIf(reply, page.listed);
      // Read fresh every time: 'Make private' must end access on the next request.
      reply.header('cache-control', 'no-store');
      return page;
    });

    route(app, api.streamPublicVersion, {}, async (request, reply) => {
      const result = await service.audio(request.params.versionId);
      indexableIf(reply, result.listed);
      if (!result.ready) {
        return reply
          .status(409)
          .header('retry-after', String(PROCESSING_RETRY_AFTER_SECONDS))
          .send(errorBody('version_processing', SHARE_MESSAGES.stillProcessing));
      }
      return sendStoredAudio(request, reply, deps.storage, result.audio);
    });
    return Promise.resolve();
  };
