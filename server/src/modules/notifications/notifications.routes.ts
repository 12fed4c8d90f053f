import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { NotificationsService } from './notifications.service';

const api = endpoints.activity;

/**
 * The signed-in person's notifications and preferences, and the emailed unsubscribe link (no
 * session: its signed token says whose and which categories).
 */
export const notificationRoutes =
  (deps: { service: NotificationsService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    // RFC 8058: the mail provider's one-click POST sends the form List-Unsubscribe=One-Click
    // (the token in the URL is what counts; the body is read and ignored).
    app.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string' },
      (_request, _body, done) => done(null, undefined),
    );

    route(app, api.listNotifications, {}, (request) =>
      service.list(userOf(request).id, request.query),
    );
    route(app, api.markNotificationsRead, {}, async (request) => {
      await service.markRead(userOf(request).id, request.body);
    });
    route(app, api.getNotificationPreferences, {}, (request) =>
      service.preferences(userOf(request).id),
    );
    route(app, api.updateNotificationPreferences, {}, (request) =>
      service.updatePreferences(userOf(request).id, request.body),
    );
    route(app, api.unsubscribePage, {}, async (request, reply) => {
      const page = await service.unsubscribePage(request.query.token);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(page);
    });
    route(app, api.unsubscribeOneClick, {}, async (request) => {
      await service.unsubscribe(request.query.token);
    });
    return Promise.resolve();
  };
