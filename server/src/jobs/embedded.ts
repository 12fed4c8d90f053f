import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../db/schema';
import type { EnqueueOptions, JobQueue } from './job-queue';
import { JobRunner, type ClaimStore, type ClaimedRun } from './job-runner';
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
type EmbeddedRun = ClaimedRun & { job: ClaimedJob };

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Jobs as rows in the application database. A worker claims a job with one atomic
 * UPDATE, holds it under a lease it renews while running, and a job whose worker died
 * is claimed again once the lease has expired.
 */
export class EmbeddedJobQueue implements JobQueue, ClaimStore<EmbeddedRun> {
  readonly kind = 'embedded' as const;
  readonly renewEveryMs: number;
  private readonly runner: JobRunner<EmbeddedRun>;
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly registry: JobRegistry,
    private readonly options: EmbeddedQueueOptions,
  ) {
    this.renewEveryMs = Math.max(Math.floor(options.leaseMs / 3), 50);
    this.runner = new JobRunner(registry, this, {
      concurrency: options.concurrency,
      pollIntervalMs: options.pollIntervalMs,
      logger: options.logger,
      now: () => options.clock.now(),
      beforePoll: () => this.pruneIfDue(),
    });
  }

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
    if (!options.executor) this.runner.poke();
    return id;
  }

  notify(): void {
    this.runner.poke();
  }

  startWorking(): Promise<void> {
    this.runner.start();
    return Promise.resolve();
  }

  /**
   * Stops taking jobs and gives running ones `graceMs` to finish; then aborts them and puts
   * them back in the queue (not counted as an attempt) for the next worker.
   */
  close(graceMs = 10_000): Promise<void> {
    return this.runner.stop(graceMs);
  }

  /** Claims and runs one due job if there is one; returns whether it found a job. */
  runOnce(): Promise<boolean> {
    return this.runner.runOnce();
  }

  async claim(): Promise<EmbeddedRun | undefined> {
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
    return {
      id: job.id,
      name: job.name,
      payload: JSON.parse(job.payload) as unknown,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      retryDelaySeconds: job.retry_delay_ms / 1000,
      job,
    };
  }

  complete(run: EmbeddedRun): Promise<void> {
    return this.finish(run.job, { state: 'completed', last_error: null });
  }

  fail(run: EmbeddedRun, message: string, retryAt: Date | null): Promise<void> {
    return this.finish(
      run.job,
      retryAt
        ? { state: 'queued', last_error: message, run_at: retryAt.toISOString() }
        : { state: 'failed', last_error: message },
    );
  }

  release(run: EmbeddedRun): Promise<void> {
    return this.releaseJob(run.job);
  }

  renew(run: EmbeddedRun): Promise<boolean> {
    return this.renewLease(run.job);
  }

  private async releaseJob(job: ClaimedJob): Promise<void> {
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
