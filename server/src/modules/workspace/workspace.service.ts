import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect-sql';
import type { MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import type { ProjectsService } from '../projects/projects.service';
import { parseJson } from '../audio';

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;
/** The debug report counts every job and checks storage: a refresh storm reuses one report. */
const DEBUG_CACHE_MS = 10_000;

/** Likes a user's words literally: % and _ match themselves. */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface DebugReport {
  database: { dialect: Dialect; migrations: string[]; latest: string | null };
  storage: { kind: string; status: 'ok' | 'error'; detail?: string };
  ffmpeg: { status: 'ok' | 'error'; version: string | null; source: string };
  jobs: { queue: string; queued: number; active: number; completed: number; failed: number };
}

/** The dashboard's figures, search across the workspace, and the debug page's checks. */
export class WorkspaceService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
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

  async stats(ownerId: string) {
    const db = this.deps.db;
    const projects = await db
      .selectFrom('projects')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('last')])
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    const branches = await db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('projects.owner_id', '=', ownerId)
      .executeTakeFirst();
    const since = new Date(this.deps.clock.now().getTime() - MONTH_MS).toISOString();
    const recent = await db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('projects.owner_id', '=', ownerId)
      .where('versions.created_at', '>=', since)
      .executeTakeFirst();
    const last = projects?.last ?? null;
    return {
      projects: Number(projects?.n ?? 0),
      tracks: Number(branches?.n ?? 0),
      lastUpdate: last ? new Date(String(last)).toISOString() : null,
      versionsLastMonth: Number(recent?.n ?? 0),
    };
  }

  async search(ownerId: string, q: string) {
    const pattern = likePattern(q);
    const like = (column: string) =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    const db = this.deps.db;
    const projects = await db
      .selectFrom('projects')
      .select(['id', 'name', 'description', 'updated_at'])
      .where('owner_id', '=', ownerId)
      .where((eb) => eb.or([like('name'), like('description')]))
      .orderBy('updated_at', 'desc')
      .limit(50)
      .execute();
    const branches = await db
      .selectFrom('branches')
      .innerJoin('projects', 'projects.id', 'branches.project_id')
      .select([
        'branches.id',
        'branches.name',
        'branches.project_id',
        'projects.name as project_name',
      ])
      .where('projects.owner_id', '=', ownerId)
      .where(like('branches.name'))
      .orderBy('branches.name')
      .limit(50)
      .execute();
    const versions = await db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .innerJoin('branches', 'branches.id', 'versions.branch_id')
      .select([
        'versions.id',
        'versions.project_id',
        'versions.branch_id',
        'versions.version_number',
        'versions.message',
        'versions.tags',
        'versions.created_at',
        'projects.name as project_name',
        'branches.name as branch_name',
      ])
      .where('projects.owner_id', '=', ownerId)
      .where((eb) => eb.or([like('versions.message'), like('versions.tags')]))
      .orderBy('versions.created_at', 'desc')
      .limit(50)
      .execute();
    return {
      projects: projects.map(({ updated_at: _u, ...p }) => p),
      branches,
      versions: versions.map((v) => ({ ...v, tags: parseJson<string[]>(v.tags, []) })),
    };
  }

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
    const db = this.deps.db;
    const migrations = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(db);
    const jobs = await db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
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
    const names = migrations.rows.map((r) => r.name);
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
      projectId: project.id,
      insertMs: Math.round(created - started),
      deleteMs: Math.round(deleted - created),
    };
  }
}
