import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DEMO_MESSAGES, endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { Forbidden, NotFound } from '../../errors';
import { route } from '../../http/route';
import type { InstanceAdmins } from '../workspace/instance-admins';
import type { ActingAdmin, AdminService } from './admin.service';

const api = endpoints.admin;

/**
 * The admin page's routes (/api/admin/*): for anyone but the instance's admins they do not exist
 * (404, as /api/debug, even for a body that would not pass), a demo account is told no (403).
 */
export const adminRoutes =
  (deps: { service: AdminService; admins: InstanceAdmins }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    // Before validation, for every route of this plugin (and of it alone): a stranger learns
    // nothing from a 400.
    app.addHook('preValidation', async (request: FastifyRequest) => {
      const { id } = userOf(request);
      if (await app.demoAccounts.isDemoAccount(id))
        throw new Forbidden(DEMO_MESSAGES.debug, { code: 'demo_not_allowed' });
      if (!(await deps.admins.includes(id))) throw new NotFound();
    });
    const actor = (request: FastifyRequest): ActingAdmin => {
      const user = userOf(request);
      return { id: user.id, email: user.email };
    };

    route(app, api.listAdminUsers, {}, async () => ({ users: await service.users() }));
    route(app, api.disableUser, {}, (request) =>
      service.disable(actor(request), request.params.id, request.body.keep_links),
    );
    route(app, api.enableUser, {}, (request) => service.enable(actor(request), request.params.id));
    route(app, api.setUserQuota, {}, (request) =>
      service.setQuota(actor(request), request.params.id, request.body.storage_quota_bytes),
    );
    route(app, api.getAdminSignups, {}, () => service.signups());
    route(app, api.setAdminSignups, {}, (request) =>
      service.storeSignups(actor(request), request.body.policy),
    );
    route(app, api.resetAdminSignups, {}, (request) => service.resetSignups(actor(request)));
    route(app, api.inviteToSignUp, {}, async (request) => {
      await service.invite(actor(request), request.body.email);
      return { ok: true as const };
    });
    route(app, api.getAdminLinkDefaults, {}, () => service.linkDefaults());
    route(app, api.setAdminLinkDefaults, {}, (request) =>
      service.setLinkDefaults(actor(request), request.body),
    );
    route(app, api.getAdminStorage, {}, () => service.storage());
    route(app, api.listAdminActions, {}, (request) =>
      service.actions(request.query.limit, request.query.cursor),
    );
    return Promise.resolve();
  };

/** The defaults any signed-in person's share dialogs start from. */
export const linkDefaultsRoutes =
  (deps: { service: AdminService }): FastifyPluginAsync =>
  (app) => {
    route(app, api.getLinkDefaults, {}, () => deps.service.linkDefaults());
    return Promise.resolve();
  };
