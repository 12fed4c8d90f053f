import type { FastifyPluginAsync } from 'fastify';
import { endpoints, errorBody, SHARE_MESSAGES, type ReviewState } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { Forbidden } from '../../errors';
import { route } from '../../http/route';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { downloadOf } from '../audio';
import type { AuthService } from '../auth';
import { hideShareUrls, listenerOf, PROCESSING_RETRY_AFTER_SECONDS } from './share-http';
import type { SharingService } from './sharing.service';

const api = endpoints.sharing;

/** Link management by the project's editors and owner (signed in; the policy decides). */
export const ownerSharingRoutes =
  (deps: { service: SharingService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
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
          .send(errorBody('version_processing', SHARE_MESSAGES.stillProcessing));
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
