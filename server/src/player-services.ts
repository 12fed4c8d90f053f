import type { AppDeps } from './deps';
import type { AccessPolicy } from './modules/access';
import type { ActivityLog } from './modules/activity';
import type { BouncesService } from './modules/repos/bounces.service';
import {
  CoverSizer,
  PlayerAppsRepo,
  PlayerAppsService,
  SubsonicRepo,
  SubsonicSearchRepo,
  SubsonicService,
  type CollectionsReader,
} from './modules/subsonic';
import type { VersionsService } from './modules/versions';

/**
 * Player apps (OpenSubsonic), wired for createServices: their keys, the library they read through
 * the access policy, and the covers scaled for them.
 */
export function createPlayerServices(ctx: {
  deps: AppDeps;
  access: AccessPolicy;
  activity: ActivityLog;
  collections: CollectionsReader;
  versions: VersionsService;
  bounces: BouncesService;
}) {
  const { deps, access, activity } = ctx;
  const db = deps.database.db;
  const playerAppsRepo = new PlayerAppsRepo(db);
  const playerApps = new PlayerAppsService({
    repo: playerAppsRepo,
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
  });
  const subsonic = new SubsonicService({
    access,
    repo: new SubsonicRepo(db),
    search: new SubsonicSearchRepo(db),
    plays: playerAppsRepo,
    activity,
    clock: deps.clock,
    collections: ctx.collections,
    versions: ctx.versions,
    bounces: ctx.bounces,
  });
  const covers = new CoverSizer({
    storage: deps.storage,
    media: deps.media,
    tmpDir: deps.tmpDir,
    timeoutMs: deps.config.media.timeoutMs,
  });
  return { playerApps, subsonic, covers };
}
