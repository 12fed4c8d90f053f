import { endpoints } from '@takes/contract';
import type { FastifyPluginAsync } from 'fastify';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { StorageQuotas } from './quotas.service';

/** The caller's own storage: what their originals and renditions take, and their quota. */
export const quotaRoutes =
  (deps: { quotas: StorageQuotas }): FastifyPluginAsync =>
  (app) => {
    route(app, endpoints.admin.getMyStorage, {}, (request) =>
      deps.quotas.usage(userOf(request).id),
    );
    return Promise.resolve();
  };
