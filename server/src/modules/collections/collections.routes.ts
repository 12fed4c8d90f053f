import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { COVER_UPLOAD_LIMITS, coverFileOf, sendCover } from '../../http/cover-upload';
import { route } from '../../http/route';
import type { ObjectStore } from '../../storage/object-store';
import type { CollectionsService } from './collections.service';

const api = endpoints.collections;

/** A person's own collections; every route needs a signed-in user. */
export const collectionRoutes =
  (deps: { service: CollectionsService; storage: ObjectStore }): FastifyPluginAsync =>
  async (app) => {
    const { service } = deps;
    // The cover upload's one image (in this plugin's scope only).
    await app.register(multipart, { limits: COVER_UPLOAD_LIMITS });

    route(app, api.listCollections, {}, (request) => service.list(userOf(request).id));
    route(app, api.createCollection, {}, (request) =>
      service.create(userOf(request).id, request.body),
    );
    route(app, api.getCollection, {}, (request) =>
      service.get(userOf(request).id, request.params.id),
    );
    route(app, api.updateCollection, {}, (request) =>
      service.update(userOf(request).id, request.params.id, request.body),
    );
    route(app, api.deleteCollection, {}, (request) =>
      service.delete(userOf(request).id, request.params.id),
    );
    route(app, api.addCollectionItem, {}, (request) =>
      service.addItem(userOf(request).id, request.params.id, request.body),
    );
    route(app, api.removeCollectionItem, {}, (request) =>
      service.removeItem(userOf(request).id, request.params.id, request.params.itemId),
    );
    route(app, api.reorderCollection, {}, (request) =>
      service.reorder(userOf(request).id, request.params.id, request.body.item_ids),
    );
    route(app, api.setCollectionCover, {}, async (request) =>
      service.setCover(userOf(request).id, request.params.id, await coverFileOf(request)),
    );
    route(app, api.deleteCollectionCover, {}, (request) =>
      service.removeCover(userOf(request).id, request.params.id),
    );
    route(app, api.getCollectionCover, {}, async (request, reply) =>
      sendCover(
        request,
        reply,
        deps.storage,
        await service.cover(userOf(request).id, request.params.id),
      ),
    );
  };
