import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../db/schema';
import { backoffMs, type EnqueueOptions, type JobQueue } from './job-queue';
import type { JobLogger, JobRef, JobRegistry } from './registry';

export interface EmbeddedQueueOptions {
  concurrency: number;
  pollIntervalMs: number;
  /** A claimed job belongs to its worker this long; the worker renews it while running. */
  leaseMs: number;
  /** Completed jobs are deleted after this long. */
  retentionMs?: number;
  clock: Clock;
  logger: JobLogger;
}

type ClaimedJob = Database['jobs'] & { attempts: number; lock_token: string };

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Jobs as rows in the application database. A worker claims a job with one atomic
 * UPDATE, holds it under a lease it renews while running, and a job whose worker died
 * is claimed again once the lease has expired.
 */
export class EmbeddedJobQueue implements JobQueue {
  readonly kind = 'embedded' as const;
  private working = false;
  private readonly running = new Set<Promise<void>>();
  private readonly controllers = new Set<AbortController>();
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly registry: JobRegistry,
    private readonly options: EmbeddedQueueOptions,
  ) {}

  async open(): Promise<void> {
    const waiting = await this.db
      .selectFrom('jobs')
      .select('name')
      .distinct()
      .where('state', 'in', ['queued', 'active'])
      .execute();
    this.registry.assertHandled(waiting.map((row) => row.name));
  }

  async enqueue<P>(job: JobRef<P>, payload: P, options: EnqueueOptions = {}): Promise<string> {
    const definition = this.registry.get(job.name);
    const parsed = definition.payload.parse(payload);
    const now = this.options.clock.now();
    const id = randomUUID();
    await (options.executor ?? this.db)
      .insertInto('jobs')
      .values({
        id,
        name: definition.name,
        payload: JSON.stringify(parsed),
        state: 'queued',
        max_attempts: definition.retryLimit + 1,
        retry_delay_ms: definition.retryDelaySeconds * 1000,
        run_at: new Date(now.getTime() + (options.delayMs ?? 0)).toISOString(),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    // Outside a transaction the job is visible now; inside one the next poll finds it.
    if (!options.executor) this.wake?.();
    return id;
  }

  notify(): void {
    this.wake?.();
  }

  startWorking(): Promise<void> {
    if (this.working) return Promise.resolve();
    this.working = true;
    this.loop = this.pollLoop();
    return Promise.resolve();
  }

  /**
   * Stops taking jobs and gives running ones `graceMs` to finish; then aborts them and puts
   * them back in the queue (not counted as an attempt) for the next worker.
   */
  async close(graceMs = 10_000): Promise<void> {
    this.working = false;
    this.wake?.();
    await this.loop;
    const settled = Promise.allSettled([...this.running]);
    const timedOut = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
    ]);
    if (timedOut) {
      for (const controller of this.controllers) controller.abort(new ShutdownError());
      await settled;
    }
  }

  /** Claims and runs one due job if there is one; returns whether it found a job. */
  async runOnce(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  private async pollLoop(): Promise<void> {
    while (this.working) {
      let claimedAny = false;
      try {
        await this.pruneIfDue();
        while (this.working && this.running.size < this.options.concurrency) {
          const job = await this.claim();
          if (!job) break;
          claimedAny = true;
          const run = this.execute(job).finally(() => {
            this.running.delete(run);
            this.wake?.();
          });
          this.running.add(run);
        }
      } catch (error) {
        this.options.logger.error({ err: error }, 'job queue poll failed');
      }
      if (!this.working) break;
      if (!claimedAny || this.running.size >= this.options.concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollIntervalMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  private async claim(): Promise<ClaimedJob | undefined> {
    const names = this.registry.names();
    if (names.length === 0) return undefined;
    const now = this.options.clock.now();
    const nowIso = now.toISOString();
    const token = randomUUID();
    const isClaimable = (eb: ExpressionBuilder<Database, 'jobs'>) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', nowIso)]),
        eb.and([eb('state', '=', 'active'), eb('lease_expires_at', '<', nowIso)]),
      ]);
    // The outer condition repeats the inner one: if two workers pick the same id, the
    // second UPDATE re-checks the row after the first committed and matches nothing.
    const claimed = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'active',
        attempts: eb('attempts', '+', 1),
        lock_token: token,
        lease_expires_at: new Date(now.getTime() + this.options.leaseMs).toISOString(),
        updated_at: nowIso,
      }))
      .where((eb) =>
        eb.and([
          eb(
            'id',
            '=',
            eb
              .selectFrom('jobs')
              .select('id')
              .where('name', 'in', names)
              .where(isClaimable)
              .orderBy('run_at')
              .limit(1),
          ),
          isClaimable(eb),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    if (!claimed) return undefined;
    const job = claimed as ClaimedJob;
    if (job.attempts > job.max_attempts) {
      // Its worker died on every attempt (each claim counts as one).
      await this.finish(job, {
        state: 'failed',
        last_error: job.last_error ?? 'The job was abandoned by its worker too many times',
      });
      this.options.logger.error({ jobId: job.id, job: job.name }, 'job failed: attempts exhausted');
      return undefined;
    }
    return job;
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const definition = this.registry.get(job.name);
    const controller = new AbortController();
    this.controllers.add(controller);
    const logger = this.options.logger;
    const renewEvery = Math.max(Math.floor(this.options.leaseMs / 3), 50);
    const heartbeat = setInterval(() => {
      this.renewLease(job).then(
        (held) => {
          if (!held) controller.abort(new Error('The job lease was lost to another worker'));
        },
        (error: unknown) => logger.warn({ err: error, jobId: job.id }, 'job lease renewal failed'),
      );
    }, renewEvery);
    const timeout = setTimeout(
      () => controller.abort(new Error(`The job ran longer than ${definition.timeoutSeconds} s`)),
      definition.timeoutSeconds * 1000,
    );
    try {
      const payload = definition.payload.parse(JSON.parse(job.payload));
      await raceAbort(
        definition.handle(payload, {
          jobId: job.id,
          attempt: job.attempts,
          signal: controller.signal,
          logger,
        }),
        controller.signal,
      );
      await this.finish(job, { state: 'completed', last_error: null });
    } catch (error) {
      if (controller.signal.reason instanceof ShutdownError) {
        await this.release(job);
        logger.info({ jobId: job.id, job: job.name }, 'job handed back to the queue at shutdown');
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts < job.max_attempts) {
        const delay = backoffMs(job.retry_delay_ms / 1000, job.attempts);
        await this.finish(job, {
          state: 'queued',
          last_error: message,
          run_at: new Date(this.options.clock.now().getTime() + delay).toISOString(),
        });
        logger.warn(
          { jobId: job.id, job: job.name, attempt: job.attempts, err: error },
          'job failed; will retry',
        );
      } else {
        await this.finish(job, { state: 'failed', last_error: message });
        logger.error(
          { jobId: job.id, job: job.name, attempt: job.attempts, err: error },
          'job failed',
        );
      }
    } finally {
      this.controllers.delete(controller);
      clearInterval(heartbeat);
      clearTimeout(timeout);
    }
  }

  private async release(job: ClaimedJob): Promise<void> {
    const nowIso = this.options.clock.now().toISOString();
    await this.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'queued',
        run_at: nowIso,
        attempts: eb('attempts', '-', 1),
        lease_expires_at: null,
        lock_token: null,
        updated_at: nowIso,
      }))
      .where('id', '=', job.id)
      .where('lock_token', '=', job.lock_token)
      .execute();
  }

  private async renewLease(job: ClaimedJob): Promise<boolean> {
    const now = this.options.clock.now();
    const result = await this.db
      .updateTable('jobs')
      .set({
        lease_expires_at: new Date(now.getTime() + this.options.leaseMs).toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', job.id)
      .where('lock_token', '=', job.lock_token)
      .where('state', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  // Only the holder of the current claim may settle a job.
  private async finish(
    job: ClaimedJob,
    update: {
      state: 'completed' | 'failed' | 'queued';
      last_error: string | null;
      run_at?: string;
    },
  ): Promise<void> {
    const nowIso = this.options.clock.now().toISOString();
    await this.db
      .updateTable('jobs')
      .set({
        ...update,
        lease_expires_at: null,
        lock_token: null,
        updated_at: nowIso,
        completed_at: update.state === 'completed' ? nowIso : null,
      })
      .where('id', '=', job.id)
      .where('lock_token', '=', job.lock_token)
      .execute();
  }

  private async pruneIfDue(): Promise<void> {
    const now = this.options.clock.now().getTime();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const retention = this.options.retentionMs ?? 7 * 24 * 60 * 60 * 1000;
    await this.db
      .deleteFrom('jobs')
      .where('state', '=', 'completed')
      .where('completed_at', '<', new Date(now - retention).toISOString())
      .execute();
  }
}

class ShutdownError extends Error {
  override name = 'ShutdownError';
  constructor() {
    super('The worker is shutting down');
  }
}

/** Settles with the work, or rejects as soon as the signal aborts. */
function raceAbort(work: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () =>
      reject(signal.reason instanceof Error ? signal.reason : new Error('Aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
