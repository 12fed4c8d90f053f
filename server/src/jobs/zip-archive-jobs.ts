import fs from 'node:fs';
import type { z } from 'zod';
import { Gone } from '../errors';
import type { ObjectStore } from '../storage/object-store';
import { defineJob, type JobDefinition, type JobLogger } from './registry';

// Zip archives built by a job, stored as one object and downloadable for a while: 'Download all'
// of a collection link and 'Export my data'. Their life is the same and is written once here:
// built from scratch on every attempt, failed after the last one, lost when its worker stopped
// touching it, gone (410) once its day is over, deleted by a recurring job after that.

const HOUR_MS = 60 * 60 * 1000;

/** A build in flight not touched for this long was lost with its worker. */
export const LOST_BUILD_MS = 2 * HOUR_MS;

/** How many times a failed build is retried before the archive is failed. */
const BUILD_RETRIES = 2;

/** When an archive made at `now` expires. */
export function expiresAfter(now: Date, hours: number): string {
  return new Date(now.getTime() + hours * HOUR_MS).toISOString();
}

/** Whether a build last touched at `updatedAt` was lost with its worker. */
export function buildLost(updatedAt: string, now: Date): boolean {
  return now.getTime() - Date.parse(updatedAt) >= LOST_BUILD_MS;
}

/** Whether an archive's day is over at `now` (one not ready yet has no expiry). */
export function archiveExpired(expiresAt: string | null, now: string): boolean {
  return expiresAt !== null && expiresAt <= now;
}

/** 410 in the archive's own words once its day is over. */
export function requireUnexpired(expiresAt: string | null, now: string, message: string): void {
  if (archiveExpired(expiresAt, now)) throw new Gone(message);
}

/** What a build is told by its job: after the last attempt a failure is recorded, not thrown. */
export interface ArchiveBuildContext {
  attempt: number;
  lastAttempt: boolean;
  signal: AbortSignal;
  logger: JobLogger;
}

/** Progress writes to the archive's row, one at a time; none lands after `stop`. */
export class ProgressWrites {
  private stopped = false;
  private chain = Promise.resolve();

  add(write: () => Promise<void>): void {
    if (this.stopped) return;
    this.chain = this.chain.then(write);
  }

  /** Waits for the writes in flight and ignores any later one. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.chain;
  }
}

export interface ArchiveBuild {
  storage: ObjectStore;
  /** The stored object's key. */
  key: string;
  /** The file the zip is written to (removed whatever happens). */
  scratch: string;
  context: ArchiveBuildContext;
  /** Logged with a failed last attempt: what the archive is and its id. */
  failure: { message: string; ids: Record<string, string> };
}

export interface ArchiveBuildSteps {
  /** Writes the zip into the scratch file; false when there is nothing to build any more. */
  write(scratch: string, progress: ProgressWrites): Promise<boolean>;
  /** Records the stored zip; false when its row went meanwhile (the object goes too). */
  stored(size: number): Promise<boolean>;
  /** Records that the archive failed (after its last attempt). */
  failed(): Promise<void>;
}

/**
 * One attempt at building an archive: written to scratch, stored as one object, recorded. A
 * failed attempt keeps nothing (its progress writes stop, its object is deleted) and throws for
 * the job to retry; the last one records the failure instead.
 */
export async function buildArchive(build: ArchiveBuild, steps: ArchiveBuildSteps): Promise<void> {
  const { storage, key, scratch, context } = build;
  // No progress of this attempt may land after it: the next attempt starts from 0.
  const progress = new ProgressWrites();
  try {
    if (!(await steps.write(scratch, progress))) return;
    await progress.stop();
    const { size } = await storage.putFile(key, scratch, { contentType: 'application/zip' });
    // Expired and removed while it was written: nothing of it stays.
    if (!(await steps.stored(size))) await storage.delete(key);
  } catch (error) {
    await progress.stop().catch(() => undefined);
    await storage.delete(key);
    if (!context.lastAttempt) throw error;
    context.logger.error({ err: error, ...build.failure.ids }, build.failure.message);
    await steps.failed();
  } finally {
    await fs.promises.rm(scratch, { force: true });
  }
}

const EXPIRY_BATCH = 100;

/**
 * The recurring clean-up: the archives whose day is over, a batch at a time, each one's object
 * deleted before `forget` removes (or marks) its row. Returns how many went.
 */
export async function expireArchives<Row>(
  storage: ObjectStore,
  archives: {
    expired(limit: number): Promise<Row[]>;
    keyOf(row: Row): string | null;
    forget(row: Row): Promise<void>;
  },
): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await archives.expired(EXPIRY_BATCH);
    for (const row of rows) {
      const key = archives.keyOf(row);
      if (key) await storage.delete(key);
      await archives.forget(row);
    }
    removed += rows.length;
    if (rows.length < EXPIRY_BATCH) return removed;
  }
}

/** The two jobs of an archive: its build (told of its last attempt) and its recurring expiry. */
export function zipArchiveJobs<S extends z.ZodType>(archive: {
  build: { name: string; payload: S };
  expire: { name: string; payload: z.ZodType };
  buildOne(payload: z.output<S>, context: ArchiveBuildContext): Promise<void>;
  expireAll(): Promise<number>;
  /** Logged with how many went, when some did. */
  expiredMessage: string;
}): JobDefinition[] {
  return [
    defineJob({
      ...archive.build,
      retryLimit: BUILD_RETRIES,
      retryDelaySeconds: 30,
      timeoutSeconds: 60 * 60,
      handle: (payload, context) =>
        archive.buildOne(payload, { ...context, lastAttempt: context.attempt > BUILD_RETRIES }),
    }),
    defineJob({
      ...archive.expire,
      retryLimit: 2,
      retryDelaySeconds: 60,
      timeoutSeconds: 10 * 60,
      handle: async (_payload, context) => {
        const removed = await archive.expireAll();
        if (removed > 0) context.logger.info({ removed }, archive.expiredMessage);
      },
    }),
  ];
}
