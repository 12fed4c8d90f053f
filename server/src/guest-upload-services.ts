import type { RateLimiter } from './auth/rate-limiter';
import type { AppDeps } from './deps';
import type { AccessPolicy } from './modules/access';
import type { ActivityLog } from './modules/activity';
import {
  GuestFilesService,
  GuestIntake,
  guestOf,
  GuestUploadsRepo,
  UploadLinksService,
  type VersionWriter,
} from './modules/guest-uploads';
import type { ProjectsService } from './modules/projects';
import type { StorageQuotas } from './modules/quotas';
import { BounceRows } from './modules/repos';
import type { HistoryService } from './modules/repos/history.service';
import type { ReposRepo } from './modules/repos/repos.repo';
import type { LinkPasswords } from './modules/sharing';
import { GuestResumableUploads } from './modules/uploads/guest-resumable-uploads';
import { ResumableUploadsRepo } from './modules/uploads/resumable-uploads.repo';
import { createTusStore } from './modules/uploads/tus-store';

/**
 * File requests, wired for createServices: upload links and the guests' files for the team, and
 * the guests' resumable uploads, whose gate (the link's checks and intake) is GuestIntake.
 */
export function createGuestUploadServices(ctx: {
  deps: AppDeps;
  access: AccessPolicy;
  limiter: RateLimiter;
  activity: ActivityLog;
  passwords: LinkPasswords;
  versions: VersionWriter;
  projects: ProjectsService;
  /** The repos module's SQL and history, for the bounces a repository's guest files become. */
  repos: { repo: ReposRepo; history: HistoryService };
  /** Lines a new version up with the one before it (the alignment module's). */
  afterAccepted: (versionId: string) => Promise<void>;
  uploadMaxBytes?: number | undefined;
  quotas: StorageQuotas;
}) {
  const { deps, access, limiter, activity, passwords } = ctx;
  const { clock, jobs, storage, media, config, tmpDir } = deps;
  const db = deps.database.db;
  const repo = new GuestUploadsRepo(db);
  const bounces = new BounceRows({ ...ctx.repos, activity });
  const links = new UploadLinksService({
    access,
    repo,
    clock,
    passwords,
    publicUrl: config.publicUrl,
    repoBranch: (repoId, name) => bounces.findBranch(repoId, name),
  });
  const files = new GuestFilesService({
    access,
    repo,
    versions: ctx.versions,
    bounces,
    clock,
    jobs,
    activity,
    limiter,
    mailer: deps.mailer,
    touchProject: (projectId, at, trx) => ctx.projects.touch(projectId, at, trx),
    afterAccepted: ctx.afterAccepted,
  });
  const intake = new GuestIntake({
    repo,
    db,
    clock,
    jobs,
    limiter,
    passwords,
    activity,
    storage,
    media,
    mediaTimeoutMs: config.media.timeoutMs,
    quotas: ctx.quotas,
  });
  const resumable = new GuestResumableUploads({
    repo: new ResumableUploadsRepo(db),
    store: createTusStore(storage, config.dataDir),
    gate: {
      admit: (key, ip, cookies, size) => intake.admit(key, ip, cookies, size),
      refusal: (linkId, held, size, trx) => intake.refusal(linkId, held, size, trx),
      stillOpen: (linkId, cookies) => intake.stillOpen(linkId, cookies),
      receive: (linkId, guest, fileName, file) => intake.receive(linkId, guest, fileName, file),
      guestOf,
    },
    clock,
    tmpDir,
    caps: config.resumableUploads,
    maxBytes: ctx.uploadMaxBytes,
  });
  return { links, files, intake, resumable };
}
