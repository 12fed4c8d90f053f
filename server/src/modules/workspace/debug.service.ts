import type { Clock } from '../../clock';
import type { Dialect } from '../../db/dialect-sql';
import type { MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import type { ProjectsService } from '../projects';
import type { WorkspaceRepo } from './workspace.repo';

/** The debug report counts every job and checks storage: a refresh storm reuses one report. */
const DEBUG_CACHE_MS = 10_000;

export interface DebugReport {
  database: { dialect: Dialect; migrations: string[]; latest: string | null };
  storage: { kind: string; status: 'ok' | 'error'; detail?: string };
  ffmpeg: { status: 'ok' | 'error'; version: string | null; source: string };
  jobs: { queue: string; queued: number; active: number; completed: number; failed: number };
}

/** The debug page's checks (database, storage, ffmpeg, jobs) and its round trip. */
export class DebugService {
  constructor(
    private readonly deps: {
      repo: WorkspaceRepo;
      dialect: Dialect;
      clock: Clock;
      storage: ObjectStore;
      media: MediaRunner;
      projects: ProjectsService;
      queueKind: string;
    },
  ) {}

  private debugCache: { at: number; report: Promise<DebugReport> } | undefined;
  /** ffmpeg's version does not change while the process runs: probed once (again after a failure). */
  private ffmpegVersion: Promise<string> | undefined;

  /** The debug page's report, at most DEBUG_CACHE_MS old. */
  debug(): Promise<DebugReport> {
    const now = this.deps.clock.now().getTime();
    if (this.debugCache && now - this.debugCache.at < DEBUG_CACHE_MS) return this.debugCache.report;
    const report = this.buildDebugReport();
    this.debugCache = { at: now, report };
    // A failed report is not kept.
    report.catch(() => {
      if (this.debugCache?.report === report) this.debugCache = undefined;
    });
    return report;
  }

  private probeFfmpeg(): Promise<string> {
    if (!this.ffmpegVersion) {
      const probe = this.deps.media.version();
      this.ffmpegVersion = probe;
      probe.catch(() => {
        if (this.ffmpegVersion === probe) this.ffmpegVersion = undefined;
      });
    }
    return this.ffmpegVersion;
  }

  private async buildDebugReport(): Promise<DebugReport> {
    const names = await this.deps.repo.migrationNames();
    const jobs = await this.deps.repo.jobCounts();
    const counts = { queued: 0, active: 0, completed: 0, failed: 0 };
    for (const row of jobs) counts[row.state] = Number(row.n);
    let storage: { kind: string; status: 'ok' | 'error'; detail?: string } = {
      kind: this.deps.storage.kind,
      status: 'ok',
    };
    try {
      await this.deps.storage.check();
    } catch (error) {
      storage = {
        ...storage,
        status: 'error',
        detail: error instanceof Error ? error.message : String(error),
      };
    }
    let ffmpeg: { status: 'ok' | 'error'; version: string | null; source: string } = {
      status: 'ok',
      version: null,
      source: this.deps.media.tools.source.ffmpeg,
    };
    try {
      ffmpeg.version = await this.probeFfmpeg();
    } catch {
      ffmpeg = { ...ffmpeg, status: 'error' };
    }
    return {
      database: {
        dialect: this.deps.dialect,
        migrations: names,
        latest: names[names.length - 1] ?? null,
      },
      storage,
      ffmpeg,
      jobs: { queue: this.deps.queueKind, ...counts },
    };
  }

  /** Inserts a test project and deletes it again, timing both. */
  async roundTrip(ownerId: string) {
    const started = performance.now();
    const project = await this.deps.projects.create(ownerId, {
      name: 'Debug round trip',
      description: 'Created and deleted by the debug page',
      is_private: true,
    });
    const created = performance.now();
    await this.deps.projects.delete(ownerId, project.id);
    const deleted = performance.now();
    return {
      project_id: project.id,
      insert_ms: Math.round(created - started),
      delete_ms: Math.round(deleted - created),
    };
  }
}
