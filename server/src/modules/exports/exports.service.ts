import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  DATA_EXPORT_MESSAGES,
  DATA_EXPORT_TTL_HOURS,
  type DataExport,
  type LatestDataExport,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import {
  archiveExpired,
  buildArchive,
  buildLost,
  expireArchives,
  expiresAfter,
  requireUnexpired,
  type ArchiveBuildContext,
  type ProgressWrites,
} from '../../jobs/zip-archive-jobs';
import type { ObjectStore } from '../../storage/object-store';
import { planExport } from './export-manifest';
import { writeExportZip } from './export-zip';
import type { ExportRow, ExportsRepo } from './exports.repo';
import { buildExportJob } from './jobs';

export interface ExportsDeps {
  repo: ExportsRepo;
  storage: ObjectStore;
  jobs: JobQueue;
  clock: Clock;
  /** Folder for the zip while it is written. */
  tmpDir: string;
}

export const exportObjectKey = (id: string) => `exports/${id}.zip`;

/**
 * 'Export my data': one export in flight per person, built by a job into a scratch file, then
 * stored as one object and downloadable by its owner for a day; a recurring job deletes it after.
 */
export class ExportsService {
  constructor(private readonly deps: ExportsDeps) {}

  async start(userId: string): Promise<DataExport> {
    await this.failStale(userId);
    if (await this.deps.repo.active(userId))
      throw new Conflict(DATA_EXPORT_MESSAGES.alreadyRunning);
    const now = this.now();
    const row: ExportRow = {
      id: randomUUID(),
      user_id: userId,
      state: 'queued',
      progress: 0,
      size: null,
      object_key: null,
      error: null,
      created_at: now,
      updated_at: now,
      ready_at: null,
      expires_at: null,
    };
    try {
      await this.deps.repo.insert(row);
    } catch (error) {
      // Two requests at once: the partial unique index lets one in.
      if (isUniqueViolation(error)) throw new Conflict(DATA_EXPORT_MESSAGES.alreadyRunning);
      throw error;
    }
    await this.deps.jobs.enqueue(buildExportJob, { exportId: row.id });
    return this.view(row);
  }

  async latest(userId: string): Promise<LatestDataExport> {
    const row = await this.deps.repo.latest(userId);
    return { export: row ? this.view(row) : null };
  }

  /** The stored zip of the caller's own ready export; anyone else's is not found. */
  async download(userId: string, id: string): Promise<{ key: string; fileName: string }> {
    const row = await this.deps.repo.find(id);
    if (!row || row.user_id !== userId) throw new NotFound(DATA_EXPORT_MESSAGES.notFound);
    // Only a ready export has an expiry (kept when the clean-up marks it expired).
    requireUnexpired(row.expires_at, this.now(), DATA_EXPORT_MESSAGES.expired);
    if (row.state !== 'ready' || !row.object_key) throw new Conflict(DATA_EXPORT_MESSAGES.notReady);
    const day = (row.ready_at ?? row.created_at).slice(0, 10);
    return { key: row.object_key, fileName: `takes-export-${day}.zip` };
  }

  /**
   * The job: builds the zip from scratch (a retry starts over), then stores it. On the last
   * failed attempt the row is failed with a message for the person; nothing half-made is kept.
   */
  async build(exportId: string, context: ArchiveBuildContext): Promise<void> {
    const row = await this.deps.repo.find(exportId);
    if (!row || (row.state !== 'queued' && row.state !== 'running')) return;
    await this.deps.repo.update(row.id, { state: 'running', progress: 0, updated_at: this.now() });
    const key = exportObjectKey(row.id);
    await buildArchive(
      {
        storage: this.deps.storage,
        key,
        scratch: path.join(this.deps.tmpDir, `export-${row.id}-${context.attempt}.zip`),
        context,
        failure: { message: 'export failed', ids: { exportId: row.id } },
      },
      {
        write: async (scratch, progress) => {
          const user = await this.deps.repo.owner(row.user_id);
          if (!user) return false;
          const plan = await planExport(this.deps, user, {
            exportId: row.id,
            createdAt: row.created_at,
          });
          const onBytes = this.percentWriter(row.id, plan.totalBytes, progress);
          await writeExportZip(this.deps.storage, plan, scratch, onBytes, context.signal);
          return true;
        },
        stored: async (size) => {
          const now = this.deps.clock.now();
          await this.deps.repo.update(row.id, {
            state: 'ready',
            progress: 100,
            size,
            object_key: key,
            ready_at: now.toISOString(),
            expires_at: expiresAfter(now, DATA_EXPORT_TTL_HOURS),
            updated_at: now.toISOString(),
          });
          return true;
        },
        failed: () => this.fail(row.id),
      },
    );
  }

  /** The recurring clean-up: deletes the zips whose day is over. Returns how many. */
  expire(): Promise<number> {
    const now = this.now();
    return expireArchives(this.deps.storage, {
      expired: (limit) => this.deps.repo.expiredReady(now, limit),
      keyOf: (row) => row.object_key,
      forget: (row) =>
        this.deps.repo.update(row.id, { state: 'expired', object_key: null, updated_at: now }),
    });
  }

  /**
   * Progress (0..99 while copying) for the row, written each time the whole percent moves.
   */
  private percentWriter(id: string, totalBytes: number, progress: ProgressWrites) {
    let written = 0;
    return (copied: number) => {
      const percent = totalBytes === 0 ? 99 : Math.min(99, Math.floor((copied * 100) / totalBytes));
      if (percent <= written) return;
      written = percent;
      progress.add(() => this.deps.repo.update(id, { progress: percent, updated_at: this.now() }));
    };
  }

  /** An export whose worker was lost (no progress for hours) no longer blocks a new one. */
  private async failStale(userId: string): Promise<void> {
    const active = await this.deps.repo.active(userId);
    if (!active) return;
    if (!buildLost(active.updated_at, this.deps.clock.now())) return;
    await this.fail(active.id);
  }

  private async fail(id: string): Promise<void> {
    await this.deps.repo.update(id, {
      state: 'failed',
      error: DATA_EXPORT_MESSAGES.failed,
      updated_at: this.now(),
    });
  }

  private stateOf(row: ExportRow): ExportRow['state'] {
    if (row.state === 'ready' && archiveExpired(row.expires_at, this.now())) return 'expired';
    return row.state;
  }

  private view(row: ExportRow): DataExport {
    return {
      id: row.id,
      state: this.stateOf(row),
      progress: row.progress,
      size: row.size === null ? null : Number(row.size),
      error: row.error,
      created_at: row.created_at,
      ready_at: row.ready_at,
      expires_at: row.expires_at,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
