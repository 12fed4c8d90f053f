import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { endpoints, SHARE_MESSAGES, type ReviewState } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { Forbidden } from '../../errors';
import { route } from '../../http/route';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { downloadOf } from '../audio';
import type { AuthService } from '../auth/auth.service';
import { toFetchHeaders } from '../auth/fetch-bridge';
import type { Listener } from './listen-counts';
import type { SharingService } from './sharing.service';

const api = endpoints.sharing;

/** How long a visitor waiting for the standard rendition is asked to wait before trying again. */
export const PROCESSING_RETRY_AFTER_SECONDS = 5;

/** Share URLs are secrets: never leak them in a Referer, never let them be indexed. */
export function hideShareUrls(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    // An error after the audio started (a listener who went away) is not answered again: the
    // headers are already out.
    if (!reply.raw.headersSent) {
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-robots-tag', 'noindex, nofollow');
    }
    done(null, payload);
  });
}

/**
 * Who a link's visitor is for its play and download counts: the signed-in person (a session
 * cookie or a bearer token that still works), else nobody but the address.
 */
export async function listenerOf(request: FastifyRequest, auth: AuthService): Promise<Listener> {
  const { cookie, authorization } = request.headers;
  const user = cookie || authorization ? await auth.currentUser(toFetchHeaders(request)) : null;
  return { ip: request.ip, userId: user?.id ?? null };
}

/** Link management by the project's editors and owner (signed in; the policy decides). */
export const ownerSharingRoutes =
  (deps: {
    service: SharingService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    app.addHook('preHandler', deps.requireUser);
    route(app, api.createShareLink, {}, (request) =>
      service.createLink(userOf(request).id, request.params.versionId, request.body),
    );
    route(app, api.listShareLinks, {}, (request) =>
      service.listLinks(userOf(request).id, request.params.versionId),
    );
    route(app, api.revokeShareLink, {}, (request) =>
      service.revokeLink(userOf(request).id, request.params.linkId),
    );
    route(app, api.updateShareLink, {}, (request) =>
      service.updateLink(userOf(request).id, request.params.linkId, request.body),
    );
    return Promise.resolve();
  };

/** What anyone holding a link may do: see, listen and maybe download (comments: modules/comments). */
export const linkRoutes =
  (deps: {
    service: SharingService;
    review: { state(versionId: string): Promise<ReviewState> };
    storage: ObjectStore;
    /** Who is listening, for the play count (a signed-in person counts as themselves). */
    auth: AuthService;
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    hideShareUrls(app);

    route(app, api.openShareLink, {}, async (request) => {
      const opened = await service.open(request.params.hash, request.ip, request.headers.cookie);
      return service.sharedPage(opened, await deps.review.state(opened.version.id));
    });

    route(app, api.unlockShareLink, {}, async (request, reply) => {
      const cookie = await service.unlock(request.params.hash, request.ip, request.body.password);
      return reply.header('set-cookie', cookie).status(204).send();
    });

    route(app, api.streamShareLink, {}, async (request, reply) => {
      const { link, version } = await service.open(
        request.params.hash,
        request.ip,
        request.headers.cookie,
      );
      // Without download rights only the standard rendition streams, never the original.
      const result = service.linkAudio({ link, version }, request.query.quality);
      if (!result.ready) {
        return reply
          .status(409)
          .header('retry-after', String(PROCESSING_RETRY_AFTER_SECONDS))
          .send({ error: SHARE_MESSAGES.stillProcessing });
      }
      await service.countPlay(link, request.headers.range, () => listenerOf(request, deps.auth));
      return sendStoredAudio(request, reply, deps.storage, result.audio);
    });

    route(app, api.downloadShareLink, {}, async (request, reply) => {
      const { link, version, project } = await service.open(
        request.params.hash,
        request.ip,
        request.headers.cookie,
      );
      if (!link.download_enabled) throw new Forbidden(SHARE_MESSAGES.downloadNotAllowed);
      const download = downloadOf(version, project.name);
      return sendObject(reply, deps.storage, download.key, request.headers.range, {
        contentType: download.contentType,
        downloadName: download.fileName,
        redirect: true,
      });
    });

    return Promise.resolve();
  };
