import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { PlayerAppsService } from './player-apps.service';

const api = endpoints.playerApps;

/** Settings → Devices: a person's player-app keys. */
export const playerAppRoutes =
  (deps: { service: PlayerAppsService }): FastifyPluginAsync =>
  (app) => {
    route(app, api.listPlayerApps, {}, (request) => deps.service.list(userOf(request).id));
    route(app, api.createPlayerApp, {}, async (request, reply) =>
      reply.status(201).send(await deps.service.create(userOf(request).id, request.body)),
    );
    route(app, api.revokePlayerApp, {}, async (request, reply) => {
      await deps.service.revoke(userOf(request).id, request.params.playerAppId);
      return reply.status(204).send();
    });
    return Promise.resolve();
  };
