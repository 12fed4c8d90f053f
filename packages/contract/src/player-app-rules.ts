// Player apps (OpenSubsonic), without schemas: the words and limits the settings page needs load
// without zod. `player-apps.ts` adds the schemas and re-exports all of this.

/** A device's name: what the person calls the player app ('Car (Symfonium)'). */
export const PLAYER_APP_NAME_MAX = 60;
/** Keys a person may hold at once (revoked ones do not count). */
export const PLAYER_APP_KEYS_MAX = 20;

export const PLAYER_APP_WORDS = {
  heading: 'Player apps',
  add: 'Add a player app',
  latestOnly: 'Only the latest version of each branch',
  revoke: 'Revoke',
  keyShownOnce: 'Copy this key now: it is shown only once.',
  neverUsed: 'Never used',
} as const;

export const PLAYER_APP_MESSAGES = {
  notFound: 'Player app not found',
  nameRequired: 'Name the device, for example: Car (Symfonium).',
  nameTooLong: `A device name can be at most ${PLAYER_APP_NAME_MAX} characters.`,
  tooMany: `You can have at most ${PLAYER_APP_KEYS_MAX} player apps. Revoke one you no longer use.`,
  demo: 'Player apps are not available in a demo account. Sign up for free to hear your mixes in the car.',
} as const;
