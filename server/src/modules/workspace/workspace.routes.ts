import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { NotFound } from '../../errors';
import { route } from '../../http/route';
import type { InstanceAdmins } from './instance-admins';
import type { DebugService } from './debug.service';
import type { SearchService } from './search.service';
import type { StatsService } from './stats.service';

const api = endpoints.workspace;

/** The dashboard's figures, search and the instance debug page; all signed in. */
export const workspaceRoutes =
  (deps: {
    stats: StatsService;
    search: SearchService;
    debug: DebugService;
    admins: InstanceAdmins;
  }): FastifyPluginAsync =>
  (app) => {
    // The debug page is the instance owner's: for anyone else it does not exist.
    const requireAdmin = async (request: FastifyRequest) => {
      if (!(await deps.admins.includes(userOf(request).id))) throw new NotFound();
    };
    const adminOnly = { preHandler: requireAdmin };
    route(app, api.getStats, {}, (request) => deps.stats.stats(userOf(request).id));
    route(app, api.search, {}, (request) =>
      deps.search.search(userOf(request).id, request.query.q),
    );
    route(app, api.getDebugReport, adminOnly, () => deps.debug.debug());
    route(app, api.runDebugRoundTrip, adminOnly, (request) =>
      deps.debug.roundTrip(userOf(request).id),
    );
    return Promise.resolve();
  };
