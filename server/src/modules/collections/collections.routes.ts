import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { CollectionsService } from './collections.service';

const api = endpoints.collections;

/** A person's own collections; every route needs a signed-in user. */
export const collectionRoutes =
  (deps: {
    service: CollectionsService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    const guarded = { preHandler: deps.requireUser };

    route(app, api.listCollections, guarded, (request) => service.list(userOf(request).id));
    route(app, api.createCollection, guarded, (request) =>
      service.create(userOf(request).id, request.body),
    );
    route(app, api.getCollection, guarded, (request) =>
      service.get(userOf(request).id, request.params.id),
    );
    route(app, api.updateCollection, guarded, (request) =>
      service.update(userOf(request).id, request.params.id, request.body),
    );
    route(app, api.deleteCollection, guarded, (request) =>
      service.delete(userOf(request).id, request.params.id),
    );
    route(app, api.addCollectionItem, guarded, (request) =>
      service.addItem(userOf(request).id, request.params.id, request.body),
    );
    route(app, api.removeCollectionItem, guarded, (request) =>
      service.removeItem(userOf(request).id, request.params.id, request.params.itemId),
    );
    route(app, api.reorderCollection, guarded, (request) =>
      service.reorder(userOf(request).id, request.params.id, request.body.itemIds),
    );
    return Promise.resolve();
  };
