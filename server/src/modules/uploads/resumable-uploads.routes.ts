import type {
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { userOf } from '../../auth/guard';
import { TUS_PATH, type ResumableUploads } from './resumable-uploads.service';

const TUS_METHODS = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The tus endpoint (resumable uploads), signed in. @tus/server reads the request itself, so the
 * bytes of a PATCH are left unread by Fastify and the reply is handed over (hijacked).
 */
export const resumableUploadRoutes =
  (deps: {
    resumable: ResumableUploads;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginCallback =>
  (app, _options, done) => {
    // Encapsulated: the parser leaves the body stream to @tus/server, for these routes only.
    app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
      done(null),
    );
    app.addHook('preHandler', deps.requireUser);
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const user = userOf(request);
      reply.hijack();
      await deps.resumable.handle(user.id, request.raw, reply.raw);
    };
    app.route({
      method: [...TUS_METHODS],
      url: TUS_PATH,
      exposeHeadRoute: false,
      schema: { hide: true },
      handler,
    });
    app.route({
      method: [...TUS_METHODS],
      url: `${TUS_PATH}/:uploadId`,
      exposeHeadRoute: false,
      schema: { hide: true },
      handler,
    });
    done();
  };
