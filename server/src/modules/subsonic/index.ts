/**
 * The subsonic module's public face: player apps' keys (Settings → Devices) and the OpenSubsonic
 * API at /rest, read-only, through the access policy.
 */
export { PlayerAppsRepo } from './player-apps.repo';
export { PlayerAppsService, type PlayerCaller } from './player-apps.service';
export { playerAppRoutes } from './player-apps.routes';
export { CoverSizer } from './subsonic-covers';
export { SubsonicRepo } from './subsonic.repo';
export { SubsonicSearchRepo } from './subsonic-search.repo';
export { SubsonicService, type CollectionsReader } from './subsonic.service';
export { subsonicRoutes } from './subsonic.routes';
