import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  PLAYER_APP_KEYS_MAX,
  PLAYER_APP_MESSAGES,
  type CreatePlayerAppBody,
  type CreatedPlayerApp,
  type PlayerApp,
  type PlayerAppsResponse,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { PlayerAppsTable } from '../../db/schema';
import { Conflict, NotFound } from '../../errors';
import { memberName } from '../people';
import type { PlayerAppsRepo } from './player-apps.repo';
import { SubsonicError } from './subsonic-errors';

/** A key's visible start: 'tks_' and four more characters. */
const PREFIX_LENGTH = 8;
/** A key's last use is written at most this often (a player asks for every Range of a song). */
const TOUCH_EVERY_MS = 60_000;

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** Who a player app's request acts as. */
export interface PlayerCaller {
  userId: string;
  appId: string;
  appName: string;
  latestOnly: boolean;
  /** What Subsonic calls the user: their address (they see only their own). */
  username: string;
  /** How the team names them. */
  name: string;
}

/**
 * Player apps' keys (the OpenSubsonic `apiKeyAuthentication` extension): one per device, made on
 * Settings → Devices, shown once; only its SHA-256 is kept. A revoked key is refused on its very
 * next request.
 */
export class PlayerAppsService {
  constructor(private readonly deps: { repo: PlayerAppsRepo; clock: Clock; publicUrl: string }) {}

  private get serverUrl(): string {
    return this.deps.publicUrl.replace(/\/+$/, '');
  }

  async list(userId: string): Promise<PlayerAppsResponse> {
    const rows = await this.deps.repo.listLive(userId);
    return { player_apps: rows.map(toPlayerApp), server_url: this.serverUrl };
  }

  /** A new key, counted against the limit in the transaction that stores it. */
  async create(userId: string, body: CreatePlayerAppBody): Promise<CreatedPlayerApp> {
    const apiKey = `tks_${randomBytes(32).toString('base64url')}`;
    const row: PlayerAppsTable = {
      id: randomUUID(),
      user_id: userId,
      name: body.name.trim(),
      key_hash: hashOf(apiKey),
      key_prefix: apiKey.slice(0, PREFIX_LENGTH),
      latest_only: body.latest_only ? 1 : 0,
      created_at: this.deps.clock.now().toISOString(),
      last_used_at: null,
      last_client: null,
      revoked_at: null,
    };
    await this.deps.repo.transaction(async (trx) => {
      await this.deps.repo.lockUser(trx, userId);
      if ((await this.deps.repo.countLive(userId, trx)) >= PLAYER_APP_KEYS_MAX)
        throw new Conflict(PLAYER_APP_MESSAGES.tooMany);
      await this.deps.repo.insert(row, trx);
    });
    return { player_app: toPlayerApp(row), api_key: apiKey, server_url: this.serverUrl };
  }

  async revoke(userId: string, id: string): Promise<void> {
    if (!(await this.deps.repo.revoke(userId, id, this.deps.clock.now().toISOString())))
      throw new NotFound(PLAYER_APP_MESSAGES.notFound);
  }

  /** The caller a key stands for, or Subsonic error 44 (unknown or revoked key). */
  async authenticate(apiKey: string, client: string | null): Promise<PlayerCaller> {
    const found = await this.deps.repo.findByHash(hashOf(apiKey));
    if (!found || found.app.revoked_at) throw new SubsonicError(44, 'Invalid API key.');
    const { app, user } = found;
    const now = this.deps.clock.now();
    const clientName = client?.slice(0, 100) ?? null;
    if (
      !app.last_used_at ||
      now.getTime() - Date.parse(app.last_used_at) > TOUCH_EVERY_MS ||
      (clientName && clientName !== app.last_client)
    )
      await this.deps.repo.touch(app.id, now.toISOString(), clientName ?? app.last_client);
    return {
      userId: user.id,
      appId: app.id,
      appName: app.name,
      latestOnly: app.latest_only === 1,
      username: user.email,
      name:
        memberName({ display_name: user.display_name, user_name: user.name, email: user.email }) ??
        user.email,
    };
  }
}

function toPlayerApp(row: PlayerAppsTable): PlayerApp {
  return {
    id: row.id,
    name: row.name,
    latest_only: Number(row.latest_only) === 1,
    key_prefix: row.key_prefix,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    last_client: row.last_client,
  };
}
