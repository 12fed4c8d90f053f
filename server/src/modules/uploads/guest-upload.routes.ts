import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { GUEST_TUS_PATH } from '@takes/contract';
import type { GuestResumableUploads } from './guest-resumable-uploads';

const TUS_METHODS = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The guests' tus endpoint: no account; the upload link's key (at create) and the upload's
 * unguessable id (after) are what it checks, with the link's password cookie. As for
 * `/api/uploads`, @tus/server reads the body itself and the reply is handed over.
 */
export const guestUploadRoutes =
  (deps: { guests: GuestResumableUploads }): FastifyPluginCallback =>
  (app, _options, done) => {
    app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
      done(null),
    );
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      await deps.guests.handle(
        { ip: request.ip, cookies: request.headers.cookie },
        request.raw,
        reply.raw,
      );
    };
    for (const url of [GUEST_TUS_PATH, `${GUEST_TUS_PATH}/:uploadId`])
      app.route({
        method: [...TUS_METHODS],
        url,
        exposeHeadRoute: false,
        schema: { hide: true },
        handler,
      });
    done();
  };
