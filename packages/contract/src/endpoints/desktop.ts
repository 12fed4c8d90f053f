import { z } from 'zod';
import {
  desktopDevicesResponseSchema,
  desktopRefreshBodySchema,
  desktopTokenBodySchema,
  desktopTokenPairSchema,
} from '../auth';
import { defineEndpoint, empty } from '../endpoint';
import { publicAccess, signedIn } from './shared';
import { DEMO_MESSAGES } from '../demo';

const tag = 'desktop';

export const getDesktopConfig = defineEndpoint({
  name: 'getDesktopConfig',
  method: 'GET',
  path: '/api/desktop/config',
  summary: "The desktop app's deep-link scheme (DESKTOP_SCHEME)",
  tag,
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: z.object({ scheme: z.string() }) },
  errors: [],
});

export const approveDesktopSignIn = defineEndpoint({
  name: 'approveDesktopSignIn',
  method: 'POST',
  path: '/api/desktop/approve',
  summary: 'Approve a desktop or CLI sign-in: a one-time code for the app to trade',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.desktopTokens },
  responses: { 200: z.object({ code: z.string() }) },
  errors: [401, 403],
});

export const exchangeDesktopCode = defineEndpoint({
  name: 'exchangeDesktopCode',
  method: 'POST',
  path: '/api/desktop/token',
  summary: 'Trade a one-time code for an access and a refresh token',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: desktopTokenBodySchema,
  responses: { 200: desktopTokenPairSchema },
  errors: [400],
});

export const refreshDesktopToken = defineEndpoint({
  name: 'refreshDesktopToken',
  method: 'POST',
  path: '/api/desktop/refresh',
  summary: 'Rotate a refresh token: a new token pair',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: desktopRefreshBodySchema,
  responses: { 200: desktopTokenPairSchema },
  errors: [400, 401],
});

export const listDesktopDevices = defineEndpoint({
  name: 'listDesktopDevices',
  method: 'GET',
  path: '/api/desktop/tokens',
  summary: 'Your signed-in desktop apps and CLIs',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: desktopDevicesResponseSchema },
  errors: [401],
});

export const revokeDesktopDevice = defineEndpoint({
  name: 'revokeDesktopDevice',
  method: 'DELETE',
  path: '/api/desktop/tokens/:id',
  summary: 'Sign out one desktop app or CLI',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ id: z.string().min(1).max(100) }),
  responses: { 204: empty('Signed out.') },
  errors: [400, 401, 404],
});
