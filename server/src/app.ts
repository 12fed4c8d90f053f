import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TrustProxy } from './config';
import type { AppDeps } from './deps';
import { registerErrorHandling } from './http/errors';
import { serializeRequest } from './http/log-redaction';
import { registerOpenApi } from './http/openapi';
import { registerSecurityHeaders } from './http/security';
import { registerSpa } from './http/spa';
import { storageRoutes } from './http/storage.routes';
import { registerIdleTimeout, serverTimeoutOptions } from './http/timeouts';
import { CLIENT_IP_HEADER, createAuth } from './auth/auth';
import { registerAuthGuard } from './auth/guard';
import { RateLimiter } from './auth/rate-limiter';
import { registerCsrfProtection } from './http/csrf';
import { authRoutes } from './modules/auth/auth.routes';
import { AuthService } from './modules/auth/auth.service';
import { desktopRoutes } from './modules/auth/desktop.routes';
import { registerDemoRestrictions } from './modules/demo/demo-policy';
import { demoRoutes } from './modules/demo/demo.routes';
import { DemoService } from './modules/demo/demo.service';
import { DemoRepo } from './modules/demo/demo.repo';
import { linkRoutes, ownerSharingRoutes } from './modules/sharing/sharing.routes';
import { SharingService } from './modules/sharing/sharing.service';
import { LinksRepo } from './modules/sharing/links.repo';
import { CommentsService } from './modules/comments/comments.service';
import { CommentsRepo } from './modules/comments/comments.repo';
import { linkCommentRoutes, ownerCommentRoutes } from './modules/comments/comments.routes';
import { VersionsRepo } from './modules/versions/versions.repo';
import { workspaceRoutes } from './modules/workspace/workspace.routes';
import { DebugService } from './modules/workspace/debug.service';
import { SearchService } from './modules/workspace/search.service';
import { StatsService } from './modules/workspace/stats.service';
import { WorkspaceRepo } from './modules/workspace/workspace.repo';
import { InstanceAdmins } from './modules/workspace/instance-admins';
import { DesktopTokensService } from './modules/auth/desktop-tokens.service';
import { MagicCodeService } from './modules/auth/magic-code.service';
import { MagicCodesRepo } from './modules/auth/magic-codes.repo';
import { DesktopTokensRepo } from './modules/auth/desktop-tokens.repo';
import { AuthRepo } from './modules/auth/auth.repo';
import { healthRoutes } from './modules/health/health.routes';
import { profileRoutes } from './modules/profiles/profiles.routes';
import { projectRoutes } from './modules/projects/projects.routes';
import { ProjectsRepo } from './modules/projects/projects.repo';
import { ProjectsService } from './modules/projects/projects.service';
import { UploadService } from './modules/versions/upload.service';
import { versionRoutes } from './modules/versions/versions.routes';
import { VersionsService } from './modules/versions/versions.service';
import { ProfilesService } from './modules/profiles/profiles.service';
import { ProfilesRepo } from './modules/profiles/profiles.repo';
import { PublishService } from './modules/repos/publish.service';
import { bounceUploadRoutes, repoRoutes } from './modules/repos/repos.routes';
import { BouncesService } from './modules/repos/bounces.service';
import { HistoryService } from './modules/repos/history.service';
import { PublishRepo } from './modules/repos/publish.repo';
import { ReposRepo } from './modules/repos/repos.repo';
import { ReposService } from './modules/repos/repos.service';
import { crawlerRoutes, siteRoutes } from './modules/site/site.routes';
import { SiteService } from './modules/site/site.service';
import { SiteRepo } from './modules/site/site.repo';
import { HealthService } from './modules/health/health.service';

export interface BuildAppOptions {
  /** The process logger (pino); without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** Upload size limit; the spec's 500 MB unless a test needs a small one. */
  uploadMaxBytes?: number;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes "the last N hops are proxies": the
 * address N entries from the right of socket + X-Forwarded-For is the client. (Fastify itself
 * ignores a plain number, since it cannot tell whether the socket peer really is a proxy; the
 * README says to use a hop count only when the server is reachable through the proxies alone.)
 */
function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Builds the Fastify app from its adapters. It does not listen; main.ts or a test does. */
export async function buildApp(
  deps: AppDeps,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // Request logs never show the secrets some URLs carry (?token=, share keys, signatures).
    childLoggerFactory: (logger, bindings, childOptions) =>
      logger.child(bindings, {
        ...childOptions,
        serializers: { ...childOptions.serializers, req: serializeRequest },
      }),
    // false, a hop count or the proxies' addresses: request.ip is then the one client address
    // every per-IP limit uses (never a raw X-Forwarded-For).
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    ...serverTimeoutOptions(deps.config.http),
  });
  registerIdleTimeout(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // better-auth reads the client address from a header: give it the one Fastify resolved,
    // replacing whatever a client sent under that name.
    request.headers[CLIENT_IP_HEADER] = request.ip;
    done();
  });

  registerErrorHandling(app);
  await registerSecurityHeaders(app, { https: deps.config.publicUrl.startsWith('https://') });
  await registerOpenApi(app, { publicUrl: deps.config.publicUrl.replace(/\/+$/, '') });

  registerCsrfProtection(app, deps.config.publicUrl);

  const db = deps.database.db;
  const demoRepo = new DemoRepo(db);
  registerDemoRestrictions(app, demoRepo);
  // An account taken over by the proven owner of its address loses its desktop tokens too
  // (`desktop` is built below; this runs only at sign-in time).
  const auth = createAuth(deps.config, deps.database, deps.secretKey, {
    onTakeover: async (userId) => {
      await desktop.revokeAllForUser(userId);
    },
  });
  const magic = new MagicCodeService({
    codes: new MagicCodesRepo(db),
    mailer: deps.mailer,
    clock: deps.clock,
    secret: deps.secretKey,
    publicUrl: deps.config.publicUrl,
  });
  const projects = new ProjectsService({
    repo: new ProjectsRepo(db),
    clock: deps.clock,
    jobs: deps.jobs,
  });
  const versionsRepo = new VersionsRepo(db);
  const versions = new VersionsService({ repo: versionsRepo, clock: deps.clock, projects });
  const uploads = new UploadService({
    db,
    repo: versionsRepo,
    storage: deps.storage,
    jobs: deps.jobs,
    media: deps.media,
    clock: deps.clock,
    tmpDir: deps.tmpDir,
    mediaTimeoutMs: deps.config.media.timeoutMs,
    projects,
    maxBytes: options.uploadMaxBytes,
  });
  const desktop = new DesktopTokensService({ repo: new DesktopTokensRepo(db), clock: deps.clock });
  const authService = new AuthService({
    auth,
    repo: new AuthRepo(db),
    limiter: new RateLimiter(db, deps.clock),
    magic,
    desktop,
    config: deps.config,
  });
  const requireUser = registerAuthGuard(app, authService);
  const demo = new DemoService({
    repo: demoRepo,
    dialect: deps.database.dialect,
    auth,
    sessions: authService,
    limiter: new RateLimiter(db, deps.clock),
    jobs: deps.jobs,
    clock: deps.clock,
    enabled: deps.config.demoEnabled,
    media: deps.media,
    uploads,
    projects,
    tmpDir: deps.tmpDir,
  });
  await app.register(demoRoutes({ service: demo }));
  await app.register(authRoutes({ service: authService, auth, config: deps.config, requireUser }));
  await app.register(
    desktopRoutes({ service: desktop, requireUser, scheme: deps.config.desktopScheme }),
  );
  const profiles = new ProfilesService({
    repo: new ProfilesRepo(db),
    storage: deps.storage,
    jobs: deps.jobs,
    clock: deps.clock,
  });
  await app.register(profileRoutes({ service: profiles, storage: deps.storage, requireUser }));

  await app.register(projectRoutes({ service: projects, requireUser }));
  await app.register(
    versionRoutes({
      versions,
      uploads,
      storage: deps.storage,
      requireUser,
      signedDownloads: deps.storage.kind === 's3',
    }),
  );

  const reposRepo = new ReposRepo(db);
  const repos = new ReposService({
    repo: reposRepo,
    clock: deps.clock,
    jobs: deps.jobs,
    storage: deps.storage,
    desktopScheme: deps.config.desktopScheme,
  });
  const history = new HistoryService({ repo: reposRepo, clock: deps.clock });
  const bounces = new BouncesService({ repo: reposRepo, clock: deps.clock, jobs: deps.jobs });
  const publish = new PublishService({
    db,
    uploads: new PublishRepo(db),
    repo: reposRepo,
    storage: deps.storage,
    jobs: deps.jobs,
    media: deps.media,
    clock: deps.clock,
    tmpDir: deps.tmpDir,
    mediaTimeoutMs: deps.config.media.timeoutMs,
    publicUrl: deps.config.publicUrl,
    history,
    bounces,
    maxBytes: options.uploadMaxBytes,
  });
  await app.register(
    repoRoutes({ repos, history, bounces, publish, storage: deps.storage, requireUser }),
  );
  await app.register(bounceUploadRoutes({ publish }));

  const shareLimiter = new RateLimiter(db, deps.clock);
  const sharing = new SharingService({
    links: new LinksRepo(db),
    versions: versionsRepo,
    clock: deps.clock,
    limiter: shareLimiter,
  });
  const comments = new CommentsService({
    comments: new CommentsRepo(db),
    versions: versionsRepo,
    clock: deps.clock,
    limiter: shareLimiter,
  });
  await app.register(ownerSharingRoutes({ service: sharing, requireUser }));
  await app.register(ownerCommentRoutes({ service: comments, requireUser }));
  await app.register(linkRoutes({ service: sharing, storage: deps.storage }));
  await app.register(linkCommentRoutes({ service: comments, sharing, auth: authService }));

  const workspaceRepo = new WorkspaceRepo(db);
  const debug = new DebugService({
    repo: workspaceRepo,
    dialect: deps.database.dialect,
    clock: deps.clock,
    storage: deps.storage,
    media: deps.media,
    projects,
    queueKind: deps.jobs.kind,
  });
  const admins = new InstanceAdmins({
    repo: workspaceRepo,
    adminEmails: deps.config.adminEmails,
    env: deps.config.env,
  });
  await app.register(
    workspaceRoutes({
      stats: new StatsService({ repo: workspaceRepo, clock: deps.clock }),
      search: new SearchService({ repo: workspaceRepo }),
      debug,
      requireUser,
      admins,
    }),
  );

  const site = new SiteService({
    repo: new SiteRepo(db),
    clock: deps.clock,
    limiter: new RateLimiter(db, deps.clock),
    config: deps.config,
  });
  await app.register(siteRoutes({ service: site }));
  await app.register(crawlerRoutes({ service: site, publicUrl: deps.config.publicUrl }));

  const health = new HealthService(deps);
  await app.register(healthRoutes({ service: health, auth: authService, admins }));
  await app.register(storageRoutes(deps));

  await registerSpa(app, deps.config.webDistDir);
  return app;
}
