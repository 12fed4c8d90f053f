import {
  routes,
  type CreatedPlayerApp,
  type CreatePlayerAppBody,
  type PlayerAppsResponse,
} from '@takes/contract';
import { api } from '../../lib/api';

const playerApps = routes.playerApps;

/** The person's player-app keys (newest first) and the address to type into a player app. */
export async function fetchPlayerApps(signal?: AbortSignal): Promise<PlayerAppsResponse> {
  return api.call(playerApps.listPlayerApps, {
    signal,
    fallbackMessage: 'Failed to load your player apps',
  });
}

/** 'Add a player app': a new key, which only this answer carries. */
export async function createPlayerApp(body: CreatePlayerAppBody): Promise<CreatedPlayerApp> {
  return api.call(playerApps.createPlayerApp, {
    body,
    fallbackMessage: 'Failed to add the player app',
  });
}

/** Revokes a key: the player app's next request is refused. DELETE answers 204 with no body. */
export async function revokePlayerApp(playerAppId: string): Promise<void> {
  await api.call(playerApps.revokePlayerApp, {
    params: { playerAppId },
    fallbackMessage: 'Failed to revoke the player app',
  });
}
