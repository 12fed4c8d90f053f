import { z } from 'zod';
import { defineEndpoint, empty } from '../endpoint';
import { PLAYER_APP_MESSAGES } from '../player-app-rules';
import {
  createPlayerAppBodySchema,
  createdPlayerAppSchema,
  playerAppsResponseSchema,
} from '../player-apps';
import { signedIn } from './shared';

const tag = 'player-apps';
const auth = signedIn;

export const listPlayerApps = defineEndpoint({
  name: 'listPlayerApps',
  method: 'GET',
  path: '/api/player-apps',
  summary: "The caller's player-app keys (OpenSubsonic), newest first, and the server address",
  tag,
  auth,
  demo: 'allowed',
  responses: { 200: playerAppsResponseSchema },
  errors: [401],
});

export const createPlayerApp = defineEndpoint({
  name: 'createPlayerApp',
  method: 'POST',
  path: '/api/player-apps',
  summary: "'Add a player app': a new OpenSubsonic API key, shown only in this answer",
  tag,
  auth,
  demo: { refused: PLAYER_APP_MESSAGES.demo },
  body: createPlayerAppBodySchema,
  responses: { 201: createdPlayerAppSchema },
  errors: [400, 401, 403, 409],
});

export const revokePlayerApp = defineEndpoint({
  name: 'revokePlayerApp',
  method: 'DELETE',
  path: '/api/player-apps/:playerAppId',
  summary: 'Revoke a player-app key: its next request is refused (Subsonic error 44)',
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ playerAppId: z.string().min(1).max(64) }),
  responses: { 204: empty('Revoked.') },
  errors: [400, 401, 404],
});
