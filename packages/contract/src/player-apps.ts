import { z } from 'zod';
import { PLAYER_APP_MESSAGES, PLAYER_APP_NAME_MAX } from './player-app-rules';

export * from './player-app-rules';

/** A player app's key, as its owner sees it on Settings → 'Devices' (never the key itself). */
export const playerAppSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Albums show only the latest version of each branch. */
  latest_only: z.boolean(),
  /** The key's first characters, so the person can tell two keys apart. */
  key_prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** The player app that used it last, as it names itself (the Subsonic `c` parameter). */
  last_client: z.string().nullable(),
});
export type PlayerApp = z.infer<typeof playerAppSchema>;

export const playerAppsResponseSchema = z.object({
  player_apps: z.array(playerAppSchema),
  /** What to type into the player app as the server's address. */
  server_url: z.string(),
});
export type PlayerAppsResponse = z.infer<typeof playerAppsResponseSchema>;

export const createPlayerAppBodySchema = z.object({
  name: z
    .string({ error: PLAYER_APP_MESSAGES.nameRequired })
    .trim()
    .min(1, PLAYER_APP_MESSAGES.nameRequired)
    .max(PLAYER_APP_NAME_MAX, PLAYER_APP_MESSAGES.nameTooLong),
  latest_only: z.boolean().default(false),
});
export type CreatePlayerAppBody = z.input<typeof createPlayerAppBodySchema>;

/** A new key: shown once, with the address to type in beside it. */
export const createdPlayerAppSchema = z.object({
  player_app: playerAppSchema,
  api_key: z.string(),
  server_url: z.string(),
});
export type CreatedPlayerApp = z.infer<typeof createdPlayerAppSchema>;
