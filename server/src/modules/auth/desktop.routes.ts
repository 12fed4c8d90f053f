import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { DesktopTokensService } from './desktop-tokens.service';

const api = endpoints.desktop;

/** Sign-in for the desktop app and the `takes` CLI. */
export const desktopRoutes =
  (deps: { service: DesktopTokensService; scheme: string }): FastifyPluginAsync =>
  (app) => {
    route(app, api.getDesktopConfig, {}, () => ({ scheme: deps.scheme }));
    route(app, api.approveDesktopSignIn, {}, async (request) => ({
      code: await deps.service.approve(userOf(request).id),
    }));
    route(app, api.exchangeDesktopCode, {}, (request) =>
      deps.service.exchange(request.body.code, {
        name: request.body.name,
        userAgent: request.headers['user-agent'],
      }),
    );
    route(app, api.refreshDesktopToken, {}, (request) =>
      deps.service.refresh(request.body.refresh_token),
    );
    route(app, api.listDesktopDevices, {}, async (request) => ({
      devices: await deps.service.listDevices(userOf(request).id),
    }));
    route(app, api.revokeDesktopDevice, {}, (request) =>
      deps.service.revokeDevice(userOf(request).id, request.params.id),
    );
    return Promise.resolve();
  };
