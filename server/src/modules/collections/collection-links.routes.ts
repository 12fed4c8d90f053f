import type { FastifyPluginAsync } from 'fastify';
import { endpoints, errorBody, SHARE_MESSAGES } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import { toFetchHeaders, type AuthService } from '../auth';
import { sendCover } from '../../http/cover-upload';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import { visitorCommentInput, type CommentsService } from '../comments';
import type { ObjectStore } from '../../storage/object-store';
import { hideShareUrls, listenerOf, PROCESSING_RETRY_AFTER_SECONDS } from '../sharing';
import type { CollectionLinksService } from './collection-links.service';

const api = endpoints.collectionLinks;

/** The owner's side of a collection's share links; every route needs a signed-in user. */
export const collectionLinkRoutes =
  (deps: { service: CollectionLinksService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    route(app, api.createCollectionLinks, {}, (request) =>
      service.create(userOf(request).id, request.params.id, request.body),
    );
    route(app, api.listCollectionLinks, {}, (request) =>
      service.list(userOf(request).id, request.params.id),
    );
    route(app, api.revokeCollectionLink, {}, (request) =>
      service.revoke(userOf(request).id, request.params.id, request.params.linkId),
    );
    return Promise.resolve();
  };

/** What anyone holding a collection link may do: see the collection and play its items. */
export const publicCollectionLinkRoutes =
  (deps: {
    service: CollectionLinksService;
    comments: CommentsService;
    auth: AuthService;
    storage: ObjectStore;
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    hideShareUrls(app);

    route(app, api.openCollectionLink, {}, async (request) =>
      service.page(await service.open(request.params.hash, request.ip, request.headers.cookie)),
    );

    // Not kept by the browser: a revoked or re-locked link stops showing it.
    route(app, api.getCollectionLinkCover, {}, async (request, reply) => {
      const opened = await service.open(request.params.hash, request.ip, request.headers.cookie);
      return sendCover(request, reply, deps.storage, service.cover(opened), 'private, no-cache');
    });

    route(app, api.streamCollectionLinkItem, {}, async (request, reply) => {
      const opened = await service.open(request.params.hash, request.ip, request.headers.cookie);
      const result = await service.itemAudio(opened, request.params.itemId, request.query.quality);
      if (!result.ready) {
        return reply
          .status(409)
          .header('retry-after', String(PROCESSING_RETRY_AFTER_SECONDS))
          .send(errorBody('version_processing', SHARE_MESSAGES.stillProcessing));
      }
      return sendStoredAudio(request, reply, deps.storage, result.audio);
    });

    route(app, api.recordCollectionLinkReceipt, {}, async (request, reply) => {
      const opened = await service.open(request.params.hash, request.ip, request.headers.cookie);
      await service.countReceipt(
        opened,
        request.params.itemId,
        request.body.event,
        await listenerOf(request, deps.auth),
      );
      return reply.status(204).send();
    });

    route(app, api.downloadCollectionLinkItem, {}, async (request, reply) => {
      const opened = await service.open(request.params.hash, request.ip, request.headers.cookie);
      const download = await service.itemDownload(
        opened,
        request.params.itemId,
        await listenerOf(request, deps.auth),
      );
      return sendObject(reply, deps.storage, download.key, request.headers.range, {
        contentType: download.contentType,
        downloadName: download.fileName,
        redirect: true,
      });
    });

    route(app, api.listCollectionLinkItemComments, {}, async (request) => {
      const opened = await service.open(request.params.hash, request.ip, request.headers.cookie);
      const { versionId } = await service.commentable(opened, request.params.itemId);
      return deps.comments.collectionLinkComments(opened.link.id, versionId);
    });

    route(app, api.addCollectionLinkItemComment, {}, async (request) => {
      const opened = await service.open(request.params.hash, request.ip, request.headers.cookie);
      const { item, versionId } = await service.commentable(opened, request.params.itemId);
      return deps.comments.addCollectionLinkComment(
        { linkId: opened.link.id, itemId: item.id, versionId },
        request.ip,
        visitorCommentInput(request.body, await deps.auth.currentUser(toFetchHeaders(request))),
      );
    });

    route(app, api.unlockCollectionLink, {}, async (request, reply) => {
      const cookie = await service.unlock(request.params.hash, request.ip, request.body.password);
      return reply.header('set-cookie', cookie).status(204).send();
    });

    return Promise.resolve();
  };
