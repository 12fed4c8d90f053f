import { createAuth, type Auth } from './auth/auth';
import { RateLimiter } from './auth/rate-limiter';
import type { AppDeps } from './deps';
import { liveEventOf } from './events/live-event';
import { createLinkServices } from './link-services';
import { createGuestUploadServices } from './guest-upload-services';
import { AccessPolicy } from './modules/access';
import { ActivityLog } from './modules/activity';
import { ActivityRepo } from './modules/activity/activity.repo';
import { ActivityService } from './modules/activity/activity.service';
import { AccessRepo } from './modules/access/access.repo';
import { AlignmentRepo, AlignmentService } from './modules/alignment';
import { AudioService } from './modules/audio';
import { AuthRepo } from './modules/auth/auth.repo';
import { AuthService } from './modules/auth/auth.service';
import { DesktopTokensRepo } from './modules/auth/desktop-tokens.repo';
import { DesktopTokensService } from './modules/auth/desktop-tokens.service';
import { MagicCodeService } from './modules/auth/magic-code.service';
import { MagicCodesRepo } from './modules/auth/magic-codes.repo';
import { CollectionsService } from './modules/collections/collections.service';
import { createPlayerServices } from './player-services';
import { createDoorServices } from './door-services';
import { createInstanceServices } from './instance-services';
import { CommentsRepo } from './modules/comments/comments.repo';
import { CommentsService } from './modules/comments/comments.service';
import { MarkersService } from './modules/comments/markers.service';
import { ReviewRepo, ReviewService } from './modules/review';
import { DemoExpiry } from './modules/demo/demo-expiry';
import { DemoRepo } from './modules/demo/demo.repo';
import { DemoService } from './modules/demo/demo.service';
import { ExportsRepo } from './modules/exports/exports.repo';
import { ExportsService } from './modules/exports/exports.service';
import { HealthService } from './modules/health/health.service';
import { NotificationsRepo } from './modules/notifications/notifications.repo';
import { NotificationsService } from './modules/notifications/notifications.service';
import { ProfilesRepo } from './modules/profiles/profiles.repo';
import { ProfilesService } from './modules/profiles/profiles.service';
import { ProjectsRepo } from './modules/projects/projects.repo';
import { PublicRepo } from './modules/public/public.repo';
import { PublicService } from './modules/public/public.service';
import { ProjectsService } from './modules/projects/projects.service';
import { BouncesService } from './modules/repos/bounces.service';
import { HistoryService } from './modules/repos/history.service';
import { PublishRepo } from './modules/repos/publish.repo';
import { PublishService } from './modules/repos/publish.service';
import { ReposRepo } from './modules/repos/repos.repo';
import { ReposService } from './modules/repos/repos.service';
import { SiteRepo } from './modules/site/site.repo';
import { SiteService } from './modules/site/site.service';
import { ResumableUploadsRepo } from './modules/uploads/resumable-uploads.repo';
import { ResumableUploads } from './modules/uploads/resumable-uploads.service';
import { createTusStore } from './modules/uploads/tus-store';
import { UploadService } from './modules/versions/upload.service';
import { VersionsRepo } from './modules/versions/versions.repo';
import { VersionsService } from './modules/versions/versions.service';
import { DebugService } from './modules/workspace/debug.service';
import { SearchService } from './modules/workspace/search.service';
import { StatsService } from './modules/workspace/stats.service';
import { WorkspaceRepo } from './modules/workspace/workspace.repo';

export interface ServiceOptions {
  /** Upload size limit; 500 MB unless a test needs a small one. */
  uploadMaxBytes?: number;
}

/**
 * Every service of the app, wired once from the adapters: the HTTP app, the job worker and the
 * tests all get theirs here, so there is one place that says what depends on what.
 */
export function createServices(deps: AppDeps, options: ServiceOptions = {}) {
  const db = deps.database.db;
  const { clock, jobs, storage, media, config, tmpDir } = deps;
  // One limiter: its budgets are rows in the database, shared by every rule and process.
  const limiter = new RateLimiter(db, clock);
  const mediaTimeoutMs = config.media.timeoutMs;
  // The one access policy every service asks before touching a project's or repository's objects.
  const access = new AccessPolicy(new AccessRepo(db));
  // Every meaningful event, recorded in the transaction of its change; notifications and live
  // updates attach to it with onRecord.
  const activityRepo = new ActivityRepo(db);
  const activity = new ActivityLog({ repo: activityRepo, clock });
  // Every open screen hears of it: on PostgreSQL a NOTIFY delivered when the transaction commits.
  activity.onRecord((trx, row) => deps.events.publish(trx, liveEventOf(row)));
  // The Activity panels and the dashboard's count read what the log recorded.
  const activityReader = new ActivityService({ access, repo: activityRepo, clock });
  // Processing of originals and clean-up of stored audio, for the audio module's jobs; each new
  // version is then lined up with the one before it (comments that follow the music).
  const mediaWork = { db, storage, media, clock, tmpDir, mediaTimeoutMs };
  const audio = new AudioService({
    ...mediaWork,
    jobs,
    activity,
    afterCompleted: (versionId) => alignment.afterProcessing(versionId),
  });
  const alignment = new AlignmentService({
    ...mediaWork,
    access,
    repo: new AlignmentRepo(db),
    jobs,
  });

  const desktop = new DesktopTokensService({ repo: new DesktopTokensRepo(db), clock });
  // Admins, the sign-up policy, quotas: the auth module asks them before new accounts and sessions.
  const instance = createInstanceServices({ deps, desktop, limiter });
  const { admins } = instance;
  // An account taken over by the proven owner of its address loses its desktop tokens too.
  const auth: Auth = createAuth(config, deps.database, deps.secretKey, {
    ...instance.authHooks,
    onTakeover: async (userId) => {
      await desktop.revokeAllForUser(userId);
    },
  });
  const magic = new MagicCodeService({
    codes: new MagicCodesRepo(db),
    mailer: deps.mailer,
    clock,
    secret: deps.secretKey,
    publicUrl: config.publicUrl,
  });
  const authService = new AuthService({
    auth,
    repo: new AuthRepo(db),
    limiter,
    magic,
    desktop,
    config,
    secret: deps.secretKey,
  });

  const projects: ProjectsService = new ProjectsService({
    access,
    repo: new ProjectsRepo(db),
    clock,
    jobs,
    activity,
    // Versions are made after projects (they need them): asked for when first used.
    versions: () => versions,
  });
  const versionsRepo = new VersionsRepo(db);
  const versions = new VersionsService({
    access,
    repo: versionsRepo,
    clock,
    jobs,
    projects,
    activity,
  });
  const uploads = new UploadService({
    access,
    db,
    repo: versionsRepo,
    storage,
    jobs,
    media,
    clock,
    tmpDir,
    mediaTimeoutMs,
    projects,
    activity,
    quotas: instance.quotas,
    maxBytes: options.uploadMaxBytes,
  });

  const demoRepo = new DemoRepo(db);
  const demo = new DemoService({
    repo: demoRepo,
    dialect: deps.database.dialect,
    auth,
    sessions: authService,
    limiter,
    jobs,
    clock,
    enabled: config.demoEnabled,
    signups: instance.signups,
    media,
    uploads,
    projects,
    tmpDir,
  });
  const profiles = new ProfilesService({ repo: new ProfilesRepo(db), storage, jobs, clock });

  const reposRepo = new ReposRepo(db);
  const repos = new ReposService({
    access,
    repo: reposRepo,
    clock,
    jobs,
    storage,
    desktopScheme: config.desktopScheme,
  });
  // Ends demo accounts a day after they began, through the deletions a person uses.
  const demoExpiry = new DemoExpiry({ demo: demoRepo, projects, repos, clock, jobs });
  const history = new HistoryService({ access, repo: reposRepo, clock, activity });
  const bounces = new BouncesService({ access, repo: reposRepo, clock, jobs });
  const publish = new PublishService({
    access,
    db,
    uploads: new PublishRepo(db),
    repo: reposRepo,
    storage,
    jobs,
    media,
    clock,
    tmpDir,
    mediaTimeoutMs,
    publicUrl: config.publicUrl,
    history,
    bounces,
    activity,
    quotas: instance.quotas,
    maxBytes: options.uploadMaxBytes,
  });
  // Resumable (tus) uploads end in the same intake as the multipart route and the publish.
  const resumable = new ResumableUploads({
    access,
    db,
    repo: new ResumableUploadsRepo(db),
    store: createTusStore(storage, config.dataDir),
    uploads,
    publish,
    clock,
    tmpDir,
    maxBytes: options.uploadMaxBytes,
    caps: config.resumableUploads,
    quotas: instance.quotas,
  });

  const review = new ReviewService({
    access,
    repo: new ReviewRepo(db),
    versions,
    clock,
    limiter,
    activity,
  });
  // Every kind of link a listener opens: version links, collection links, blind tests.
  const { collectionsRepo, collectionLinks, collectionZips, sharing, blindTests, linkPasswords } =
    createLinkServices({ deps, access, limiter, activity, versionsRepo, reposRepo, review });
  // File requests: upload links, guests' files waiting for the team, guests' resumable uploads.
  const guestUploads = createGuestUploadServices({
    deps,
    access,
    limiter,
    activity,
    passwords: linkPasswords,
    versions: versionsRepo,
    projects,
    repos: { repo: reposRepo, history },
    afterAccepted: (versionId) => alignment.afterProcessing(versionId),
    uploadMaxBytes: options.uploadMaxBytes,
    quotas: instance.quotas,
  });
  const comments = new CommentsService({
    access,
    comments: new CommentsRepo(db),
    clock,
    limiter,
    activity,
    // Earlier versions' comments follow the music onto a new version.
    carrierTo: (versionId) => alignment.carrierTo(versionId),
  });
  // A version's comments as DAW markers (the WAV with its audio).
  const markers = new MarkersService({
    access,
    comments,
    versions: versionsRepo,
    storage,
    media,
    tmpDir,
    timeoutMs: mediaTimeoutMs,
  });
  const collections = new CollectionsService({
    access,
    repo: collectionsRepo,
    clock,
    storage,
    jobs,
  });
  // Player apps (OpenSubsonic): keys made on Settings → Devices, the library at /rest.
  const players = createPlayerServices({ deps, access, activity, collections, versions, bounces });
  // Public projects' read-only pages, for anyone (the policy says whether a project is Public).
  const publicProjects = new PublicService({ access, repo: new PublicRepo(db) });

  const workspaceRepo = new WorkspaceRepo(db);
  const workspace = {
    stats: new StatsService({ access, repo: workspaceRepo, clock, activity: activityReader }),
    search: new SearchService({ access, repo: workspaceRepo }),
    debug: new DebugService({
      repo: workspaceRepo,
      dialect: deps.database.dialect,
      clock,
      storage,
      media,
      projects,
      queueKind: jobs.kind,
    }),
  };
  // Invitations by email, invite links and access requests: every door into a project.
  const doors = createDoorServices({
    deps,
    access,
    activity,
    limiter,
    emailCheck: authService,
    sharing,
    collectionLinks,
    projects,
    repos,
  });
  const { members, invitations } = doors;
  // Who hears of each recorded event: fanned out inside the recording transaction.
  const notifications = new NotificationsService({
    repo: new NotificationsRepo(db),
    clock,
    jobs,
    mailer: deps.mailer,
    secret: deps.secretKey,
    publicUrl: config.publicUrl,
    batchSeconds: config.notificationBatchSeconds,
  });
  activity.onRecord((trx, row) => notifications.fanOut(trx, row));
  // 'Export my data': zips of what a person owns, built by a job, downloadable for a day.
  const dataExports = new ExportsService({
    repo: new ExportsRepo(db),
    storage,
    jobs,
    clock,
    tmpDir,
  });
  const site = new SiteService({ repo: new SiteRepo(db), clock, limiter, config });
  const health = new HealthService(deps);

  return {
    access,
    limiter,
    activity,
    activityReader,
    audio,
    alignment,
    auth,
    authService,
    magic,
    desktop,
    demo,
    demoRepo,
    demoExpiry,
    profiles,
    projects,
    versions,
    uploads,
    repos,
    history,
    bounces,
    publish,
    resumable,
    sharing,
    collections,
    collectionLinks,
    collectionZips,
    blindTests,
    guestUploads,
    players,
    review,
    comments,
    markers,
    members,
    invitations,
    inviteLinks: doors.inviteLinks,
    accessRequests: doors.accessRequests,
    notifications,
    exports: dataExports,
    publicProjects,
    workspace,
    admins,
    signups: instance.signups,
    quotas: instance.quotas,
    admin: instance.admin,
    site,
    health,
  };
}

export type Services = ReturnType<typeof createServices>;
