import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TrustProxy } from './config';
import type { AppDeps } from './deps';
import { createServices, type Services } from './services';
import { eventRoutes } from './events/events.routes';
import { registerCompression } from './http/compression';
import { registerErrorHandling } from './http/errors';
import { redactUrl, serializeRequest } from './http/log-redaction';
import { registerNulGuard } from './http/nul-characters';
import { registerOpenApi } from './http/openapi';
import { presignedOrigin, registerSecurityHeaders } from './http/security';
import { registerCliPackage } from './http/cli-package';
import { registerSpa } from './http/spa';
import { storageRoutes } from './http/storage.routes';
import { registerIdleTimeout, serverTimeoutOptions } from './http/timeouts';
import { CLIENT_IP_HEADER } from './auth/auth';
import { registerAuthGuard } from './auth/guard';
import { registerCsrfProtection } from './http/csrf';
import { authRoutes } from './modules/auth/auth.routes';
import { desktopRoutes } from './modules/auth/desktop.routes';
import { demoRoutes } from './modules/demo/demo.routes';
import { linkRoutes, ownerSharingRoutes } from './modules/sharing/sharing.routes';
import { linkCommentRoutes, ownerCommentRoutes } from './modules/comments/comments.routes';
import { markerRoutes } from './modules/comments/markers.routes';
import { linkReviewRoutes, memberReviewRoutes } from './modules/review';
import { alignmentRoutes } from './modules/alignment';
import { blindTestRoutes, publicBlindTestRoutes } from './modules/blind-tests';
import { playerAppRoutes, subsonicRoutes } from './modules/subsonic';
import { activityRoutes } from './modules/activity/activity.routes';
import { workspaceRoutes } from './modules/workspace/workspace.routes';
import { adminRoutes, linkDefaultsRoutes } from './modules/admin/admin.routes';
import { healthRoutes } from './modules/health/health.routes';
import { memberRoutes } from './modules/members/members.routes';
import { doorRoutes } from './modules/members/doors.routes';
import { notificationRoutes } from './modules/notifications/notifications.routes';
import { exportRoutes } from './modules/exports/exports.routes';
import { profileRoutes } from './modules/profiles/profiles.routes';
import { projectRoutes } from './modules/projects/projects.routes';
import {
  collectionLinkRoutes,
  publicCollectionLinkRoutes,
} from './modules/collections/collection-links.routes';
import { collectionZipRoutes } from './modules/collections/collection-zips.routes';
import { collectionRoutes } from './modules/collections/collections.routes';
import { publicRoutes } from './modules/public/public.routes';
import { resumableUploadRoutes } from './modules/uploads/resumable-uploads.routes';
import { guestUploadRoutes } from './modules/uploads/guest-upload.routes';
import { guestUploadLinkRoutes, guestUploadTeamRoutes } from './modules/guest-uploads';
import { versionRoutes } from './modules/versions/versions.routes';
import { quotaRoutes } from './modules/quotas';
import { bounceUploadRoutes, repoRoutes } from './modules/repos/repos.routes';
import { crawlerRoutes, siteRoutes } from './modules/site/site.routes';

export interface BuildAppOptions {
  /** The process logger (pino); without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** Upload size limit; 500 MB unless a test needs a small one. */
  uploadMaxBytes?: number;
  /** The services, when the caller made them (to share them with its job worker). */
  services?: Services;
  /** The live-update stream's heartbeat (25 s unless a test needs a short one). */
  eventsHeartbeatMs?: number;
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
    // Request logs never show the secrets some URLs carry (?token=, share keys, signatures):
    // the app's logger serialises requests with their URL redacted (set once, here).
    ...(options.logger
      ? {
          loggerInstance: options.logger.child({}, { serializers: { req: serializeRequest } }),
        }
      : { logger: false }),
    // One line per request, when it is answered, instead of Fastify's two.
    logController: new OneLineRequestLog(),
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
  registerNulGuard(app);
  // Before any route: JSON answers above 1 KB go out brotli- or gzip-compressed.
  await registerCompression(app);
  await registerSecurityHeaders(app, {
    https: deps.config.publicUrl.startsWith('https://'),
    storageOrigin: await presignedOrigin(deps.storage),
  });
  await registerOpenApi(app, { publicUrl: deps.config.publicUrl.replace(/\/+$/, '') });

  registerCsrfProtection(app, deps.config.publicUrl);

  const services = options.services ?? createServices(deps, options);
  const { authService, workspace, admins } = services;
  // Before any route: descriptors that refuse demo accounts ask it (see route()).
  app.decorate('demoAccounts', services.demoRepo);
  const requireUser = registerAuthGuard(app, authService);
  // Before any route: descriptors that admit signed-in callers only are checked by route().
  app.decorate('signInCheck', requireUser);

  await app.register(demoRoutes({ service: services.demo }));
  await app.register(
    authRoutes({
      service: authService,
      auth: services.auth,
      config: deps.config,
      requireUser,
      signups: services.signups,
    }),
  );
  await app.register(
    desktopRoutes({ service: services.desktop, scheme: deps.config.desktopScheme }),
  );
  await app.register(profileRoutes({ service: services.profiles, storage: deps.storage }));

  await app.register(projectRoutes({ service: services.projects }));
  await app.register(collectionRoutes({ service: services.collections, storage: deps.storage }));
  await app.register(collectionLinkRoutes({ service: services.collectionLinks }));
  await app.register(
    versionRoutes({
      versions: services.versions,
      uploads: services.uploads,
      storage: deps.storage,
      requireUser,
      sessions: authService,
      signedDownloads: deps.storage.kind === 's3',
    }),
  );
  await app.register(quotaRoutes({ quotas: services.quotas }));
  await app.register(resumableUploadRoutes({ resumable: services.resumable, requireUser }));
  // File requests: the team's upload links and guests' files; the guest's page and tus uploads.
  await app.register(
    guestUploadTeamRoutes({
      links: services.guestUploads.links,
      files: services.guestUploads.files,
      storage: deps.storage,
    }),
  );
  await app.register(guestUploadLinkRoutes({ intake: services.guestUploads.intake }));
  await app.register(guestUploadRoutes({ guests: services.guestUploads.resumable }));

  await app.register(
    repoRoutes({
      repos: services.repos,
      history: services.history,
      bounces: services.bounces,
      publish: services.publish,
      storage: deps.storage,
    }),
  );
  await app.register(bounceUploadRoutes({ publish: services.publish }));

  await app.register(
    memberRoutes({ service: services.members, invitations: services.invitations }),
  );
  await app.register(
    doorRoutes({
      inviteLinks: services.inviteLinks,
      accessRequests: services.accessRequests,
      signups: services.signups,
    }),
  );
  await app.register(notificationRoutes({ service: services.notifications }));
  await app.register(activityRoutes({ service: services.activityReader }));
  await app.register(exportRoutes({ service: services.exports, storage: deps.storage }));

  await app.register(ownerSharingRoutes({ service: services.sharing }));
  await app.register(ownerCommentRoutes({ service: services.comments }));
  await app.register(markerRoutes({ service: services.markers, sharing: services.sharing }));
  await app.register(memberReviewRoutes({ service: services.review }));
  await app.register(alignmentRoutes({ service: services.alignment }));
  await app.register(blindTestRoutes({ service: services.blindTests.owner }));
  await app.register(playerAppRoutes({ service: services.players.playerApps }));
  await app.register(
    subsonicRoutes({
      service: services.players.subsonic,
      playerApps: services.players.playerApps,
      limiter: services.limiter,
      storage: deps.storage,
      covers: services.players.covers,
    }),
  );
  await app.register(
    publicBlindTestRoutes({ listening: services.blindTests.listening, storage: deps.storage }),
  );
  await app.register(
    linkRoutes({
      service: services.sharing,
      review: services.review,
      storage: deps.storage,
      auth: authService,
    }),
  );
  await app.register(
    publicCollectionLinkRoutes({
      service: services.collectionLinks,
      comments: services.comments,
      auth: authService,
      storage: deps.storage,
    }),
  );
  await app.register(
    collectionZipRoutes({
      links: services.collectionLinks,
      zips: services.collectionZips,
      storage: deps.storage,
      auth: authService,
    }),
  );
  await app.register(
    linkCommentRoutes({ service: services.comments, sharing: services.sharing, auth: authService }),
  );
  await app.register(
    linkReviewRoutes({ service: services.review, sharing: services.sharing, auth: authService }),
  );

  await app.register(publicRoutes({ service: services.publicProjects, storage: deps.storage }));

  await app.register(adminRoutes({ service: services.admin, admins }));
  await app.register(linkDefaultsRoutes({ service: services.admin }));
  await app.register(
    workspaceRoutes({
      stats: workspace.stats,
      search: workspace.search,
      debug: workspace.debug,
      admins,
    }),
  );

  await app.register(
    eventRoutes({
      bus: deps.events,
      access: services.access,
      sharing: services.sharing,
      auth: authService,
      heartbeatMs: options.eventsHeartbeatMs,
    }),
  );

  await app.register(siteRoutes({ service: services.site }));
  await app.register(crawlerRoutes({ service: services.site, publicUrl: deps.config.publicUrl }));
  await app.register(healthRoutes({ service: services.health, auth: authService, admins }));
  await app.register(storageRoutes(deps));

  registerCliPackage(app, deps.config.cliPackageFile);
  await registerSpa(app, deps.config.webDistDir, {
    indexableProject: (projectId) => services.publicProjects.indexable(projectId),
    signedIn: (cookies) => authService.hasLiveSession(cookies ?? null),
  });
  return app;
}

/**
 * The request log: one line per request when it has been answered (method, redacted URL,
 * status, time), like a web server's access log. Fastify's default writes two (the whole request
 * when it arrives, the reply when it ends), which at info level took a fifth of a cheap request.
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      req: { method: request.method, url: redactUrl(request.url) },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
