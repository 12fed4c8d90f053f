import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { ActivityService } from './activity.service';

const api = endpoints.activity;

/** The Activity panels of project and repository pages (any member; 'Load more' by cursor). */
export const activityRoutes =
  (deps: { service: ActivityService }): FastifyPluginAsync =>
  (app) => {
    route(app, api.listProjectActivity, {}, (request) =>
      deps.service.projectActivity(userOf(request).id, request.params.projectId, request.query),
    );
    route(app, api.listRepoActivity, {}, (request) =>
      deps.service.repoActivity(userOf(request).id, request.params.id, request.query),
    );
    return Promise.resolve();
  };
