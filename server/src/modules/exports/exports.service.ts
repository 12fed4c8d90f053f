import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  DATA_EXPORT_MESSAGES,
  DATA_EXPORT_TTL_HOURS,
  type DataExport,
  type LatestDataExport,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, Gone, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobLogger } from '../../jobs/registry';
import type { ObjectStore } from '../../storage/object-store';
import { planExport } from './export-manifest';
import { writeExportZip } from './export-zip';
import type { ExportRow, ExportsRepo } from './exports.repo';
import { buildExportJob } from './export-jobs';

export interface ExportsDeps {
  repo: ExportsRepo;
  storage: ObjectStore;
  jobs: JobQueue;
  clock: Clock;
  /** Folder for the zip while it is written. */
  tmpDir: string;
}

const HOUR_MS = 60 * 60 * 1000;
/** An export in flight not touched for this long was lost with its worker: it is failed. */
const STALE_MS = 2 * HOUR_MS;

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
    const state = this.stateOf(row);
    if (state === 'expired') throw new Gone(DATA_EXPORT_MESSAGES.expired);
    if (state !== 'ready' || !row.object_key) throw new Conflict(DATA_EXPORT_MESSAGES.notReady);
    const day = (row.ready_at ?? row.created_at).slice(0, 10);
    return { key: row.object_key, fileName: `takes-export-${day}.zip` };
  }

  /**
   * The job: builds the zip from scratch (a retry starts over), then stores it. On the last
   * failed attempt the row is failed with a message for the person; nothing half-made is kept.
   */
  async build(
    exportId: string,
    context: { attempt: number; lastAttempt: boolean; signal: AbortSignal; logger: JobLogger },
  ): Promise<void> {
    const row = await this.deps.repo.find(exportId);
    if (!row || (row.state !== 'queued' && row.state !== 'running')) return;
    const key = exportObjectKey(row.id);
    const scratch = path.join(this.deps.tmpDir, `export-${row.id}-${context.attempt}.zip`);
    await this.deps.repo.update(row.id, { state: 'running', progress: 0, updated_at: this.now() });
    let progress: ReturnType<ExportsService['progressWriter']> | undefined;
    try {
      const user = await this.deps.repo.owner(row.user_id);
      if (!user) return;
      const plan = await planExport(this.deps, user, {
        exportId: row.id,
        createdAt: row.created_at,
      });
      progress = this.progressWriter(row.id, plan.totalBytes);
      await writeExportZip(this.deps.storage, plan, scratch, progress.onBytes, context.signal);
      await progress.stop();
      const { size } = await this.deps.storage.putFile(key, scratch, {
        contentType: 'application/zip',
      });
      const now = this.deps.clock.now();
      await this.deps.repo.update(row.id, {
        state: 'ready',
        progress: 100,
        size,
        object_key: key,
        ready_at: now.toISOString(),
        expires_at: new Date(now.getTime() + DATA_EXPORT_TTL_HOURS * HOUR_MS).toISOString(),
        updated_at: now.toISOString(),
      });
    } catch (error) {
      // No progress of this attempt may land after it: the next attempt starts from 0.
      await progress?.stop().catch(() => undefined);
      await this.deps.storage.delete(key);
      if (!context.lastAttempt) throw error;
      context.logger.error({ err: error, exportId: row.id }, 'export failed');
      await this.deps.repo.update(row.id, {
        state: 'failed',
        error: DATA_EXPORT_MESSAGES.failed,
        updated_at: this.now(),
      });
    } finally {
      await fs.promises.rm(scratch, { force: true });
    }
  }

  /** The recurring clean-up: deletes the zips whose day is over. Returns how many. */
  async expire(): Promise<number> {
    const now = this.now();
    let removed = 0;
    for (;;) {
      const rows = await this.deps.repo.expiredReady(now, 100);
      for (const row of rows) {
        if (row.object_key) await this.deps.storage.delete(row.object_key);
        await this.deps.repo.update(row.id, {
          state: 'expired',
          object_key: null,
          updated_at: now,
        });
      }
      removed += rows.length;
      if (rows.length < 100) return removed;
    }
  }

  /**
   * Writes progress (0..99 while copying) to the row each time the whole percent moves; `stop`
   * waits for the writes in flight and ignores any later bytes.
   */
  private progressWriter(id: string, totalBytes: number) {
    let written = 0;
    let stopped = false;
    let chain = Promise.resolve();
    return {
      onBytes: (copied: number) => {
        const percent =
          totalBytes === 0 ? 99 : Math.min(99, Math.floor((copied * 100) / totalBytes));
        if (stopped || percent <= written) return;
        written = percent;
        chain = chain.then(() =>
          this.deps.repo.update(id, { progress: percent, updated_at: this.now() }),
        );
      },
      stop: () => {
        stopped = true;
        return chain;
      },
    };
  }

  /** An export whose worker was lost (no progress for hours) no longer blocks a new one. */
  private async failStale(userId: string): Promise<void> {
    const active = await this.deps.repo.active(userId);
    if (!active) return;
    if (this.deps.clock.now().getTime() - Date.parse(active.updated_at) < STALE_MS) return;
    await this.deps.repo.update(active.id, {
      state: 'failed',
      error: DATA_EXPORT_MESSAGES.failed,
      updated_at: this.now(),
    });
  }

  private stateOf(row: ExportRow): ExportRow['state'] {
    if (row.state === 'ready' && row.expires_at && row.expires_at <= this.now()) return 'expired';
    return row.state;
  }

  private view(row: ExportRow): DataExport {
    return {
      id: row.id,
      state: this.stateOf(row),
      progress: row.progress,
      size: row.size === null ? null : Number(row.size),
      error: row.error,
      createdAt: row.created_at,
      readyAt: row.ready_at,
      expiresAt: row.expires_at,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
