import { z } from 'zod';
import {
  activityPageSchema,
  activityQuerySchema,
  markReadBodySchema,
  notificationPreferencesSchema,
  notificationsPageSchema,
  notificationsQuerySchema,
  unsubscribeQuerySchema,
} from '../activity';
import { defineEndpoint, empty, text } from '../endpoint';
import { publicAccess, signedIn } from './shared';

const tag = 'activity';
const id = z.string().min(1).max(64);

export const listProjectActivity = defineEndpoint({
  name: 'listProjectActivity',
  method: 'GET',
  path: '/api/projects/:projectId/activity',
  summary: "A project's activity, newest first, a page at a time ('Load more' passes the cursor)",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ projectId: id }),
  query: activityQuerySchema,
  responses: { 200: activityPageSchema },
  errors: [400, 401, 404],
});

export const listRepoActivity = defineEndpoint({
  name: 'listRepoActivity',
  method: 'GET',
  path: '/api/repos/:id/activity',
  summary: "A repository's activity, newest first, a page at a time",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ id }),
  query: activityQuerySchema,
  responses: { 200: activityPageSchema },
  errors: [400, 401, 404],
});

export const listNotifications = defineEndpoint({
  name: 'listNotifications',
  method: 'GET',
  path: '/api/notifications',
  summary: 'Your notifications, newest first, with the unread count',
  tag,
  auth: signedIn,
  demo: 'allowed',
  query: notificationsQuerySchema,
  responses: { 200: notificationsPageSchema },
  errors: [400, 401],
});

export const markNotificationsRead = defineEndpoint({
  name: 'markNotificationsRead',
  method: 'POST',
  path: '/api/notifications/read',
  summary: "Mark notifications read: some by id, all ('Mark all as read'), or those of a target",
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: markReadBodySchema,
  responses: { 204: empty() },
  errors: [400, 401],
});

export const getNotificationPreferences = defineEndpoint({
  name: 'getNotificationPreferences',
  method: 'GET',
  path: '/api/notifications/preferences',
  summary: 'How you hear of each kind of event',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: notificationPreferencesSchema },
  errors: [401],
});

export const updateNotificationPreferences = defineEndpoint({
  name: 'updateNotificationPreferences',
  method: 'PUT',
  path: '/api/notifications/preferences',
  summary: 'Choose how you hear of each kind of event',
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: notificationPreferencesSchema,
  responses: { 200: notificationPreferencesSchema },
  errors: [400, 401],
});

export const unsubscribePage = defineEndpoint({
  name: 'unsubscribePage',
  method: 'GET',
  path: '/api/notifications/unsubscribe',
  summary: "The email's unsubscribe link: a page confirming, no sign-in needed (signed token)",
  tag,
  auth: publicAccess,
  demo: 'allowed',
  query: unsubscribeQuerySchema,
  responses: { 200: text('text/html', 'A page saying what was turned off.') },
  errors: [400, 410],
});

export const unsubscribeOneClick = defineEndpoint({
  name: 'unsubscribeOneClick',
  method: 'POST',
  path: '/api/notifications/unsubscribe',
  summary: 'One-click unsubscribe (RFC 8058 List-Unsubscribe-Post), no sign-in needed',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  query: unsubscribeQuerySchema,
  responses: { 204: empty() },
  errors: [400, 410],
});

export const streamEvents = defineEndpoint({
  name: 'streamEvents',
  method: 'GET',
  path: '/api/events',
  summary: 'Live updates (Server-Sent Events): which queries to refresh; heartbeat every 25 s',
  description:
    "Signed in: events of the projects and repositories you can see and your notifications. With `link` (a share key): that link's version's comments only, while the link is valid (404 unknown or revoked, 410 expired). Each event is `data: {json}` with the queries' hints (type, kind, projectId, repoId, versionId); the stream ends when the session or the link stops being valid.",
  tag,
  auth: [...signedIn, 'shareKey'],
  demo: 'allowed',
  query: z.object({ link: z.string().max(64).optional() }),
  responses: { 200: text('text/event-stream', 'An endless event stream.') },
  errors: [401, 404, 410, 429],
});
