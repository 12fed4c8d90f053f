import { backoffMs } from './job-queue';
import type { JobLogger, JobRegistry } from './registry';

/** One claimed run of a job, as a queue back end hands it to the runner. */
export interface ClaimedRun {
  id: string;
  name: string;
  /** The stored payload, not yet parsed by the job's schema. */
  payload: unknown;
  /** 1 on the first run, 2 on the first retry, and so on. */
  attempt: number;
  /** Runs allowed in all (retries + 1). */
  maxAttempts: number;
  retryDelaySeconds: number;
}

/** What the runner needs of a queue's storage: claim a run and settle it. */
export interface ClaimStore<R extends ClaimedRun> {
  /** Claims one due job, or answers undefined when none is due. */
  claim(): Promise<R | undefined>;
  complete(run: R): Promise<void>;
  /** Settles a failed run: queued again at `retryAt`, or failed for good when it is null. */
  fail(run: R, message: string, retryAt: Date | null): Promise<void>;
  /** Puts a run back uncounted (the worker is shutting down). */
  release(run: R): Promise<void>;
  /** Renews the run's own claim, if the store keeps one per run; false once it was lost. */
  renew?(run: R): Promise<boolean>;
  /** How often `renew` runs. */
  renewEveryMs?: number;
}

export interface JobRunnerOptions {
  concurrency: number;
  pollIntervalMs: number;
  logger: JobLogger;
  now: () => Date;
  /** Work done before each poll (pruning old rows). */
  beforePoll?: () => Promise<void>;
}

/** About 40 s of tries in all: longer than a database restart. */
const SETTLE_ATTEMPTS = 10;

export class ShutdownError extends Error {
  override name = 'ShutdownError';
  constructor() {
    super('The worker is shutting down');
  }
}

export class LostClaimError extends Error {
  override name = 'LostClaimError';
  constructor() {
    super('The job was handed to another worker');
  }
}

/**
 * Runs claimed jobs, up to `concurrency` at a time, for either queue: each run gets its time limit
 * and an abort signal; success completes it, failure retries it with backoff or fails it for good;
 * at shutdown, runs that overstay the grace period are aborted and handed back uncounted; a run
 * whose claim was lost (another worker took it over) is abandoned without settling it.
 */
export class JobRunner<R extends ClaimedRun> {
  private working = false;
  private readonly running = new Set<Promise<void>>();
  private readonly controllers = new Map<AbortController, R>();
  private wake: (() => void) | undefined;
  /** A poke that came while the loop was busy claiming: the loop looks again instead of sleeping. */
  private poked = false;
  private loop: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly registry: JobRegistry,
    private readonly store: ClaimStore<R>,
    private readonly options: JobRunnerOptions,
  ) {}

  get isWorking(): boolean {
    return this.working;
  }

  start(): void {
    if (this.working) return;
    this.working = true;
    this.loop = this.pollLoop();
  }

  /** Look for jobs now, not at the next poll. */
  poke(): void {
    if (this.wake) this.wake();
    else this.poked = true;
  }

  /** Aborts every running job whose claim is gone; they are not settled by this worker. */
  abandonAll(): void {
    for (const controller of this.controllers.keys()) controller.abort(new LostClaimError());
  }

  /**
   * Stops taking jobs and gives running ones `graceMs` to finish; then aborts them and hands them
   * back to the queue (not counted as an attempt) for the next worker.
   */
  stop(graceMs: number): Promise<void> {
    this.stopping ??= this.stopOnce(graceMs);
    return this.stopping;
  }

  private async stopOnce(graceMs: number): Promise<void> {
    this.working = false;
    this.wake?.();
    await this.loop;
    const settled = Promise.allSettled([...this.running]);
    const timedOut = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
    ]);
    if (timedOut) {
      for (const controller of this.controllers.keys()) controller.abort(new ShutdownError());
      await settled;
    }
  }

  /** Claims and runs one due job if there is one; returns whether it found a job. */
  async runOnce(): Promise<boolean> {
    const run = await this.store.claim();
    if (!run) return false;
    await this.execute(run);
    return true;
  }

  private async pollLoop(): Promise<void> {
    while (this.working) {
      let claimedAny = false;
      this.poked = false;
      try {
        await this.options.beforePoll?.();
        while (this.working && this.running.size < this.options.concurrency) {
          const run = await this.store.claim();
          if (!run) break;
          claimedAny = true;
          const execution = this.execute(run)
            .catch((error: unknown) =>
              this.options.logger.error({ err: error, jobId: run.id }, 'job could not be settled'),
            )
            .finally(() => {
              this.running.delete(execution);
              this.wake?.();
            });
          this.running.add(execution);
        }
      } catch (error) {
        this.options.logger.error({ err: error }, 'job queue poll failed');
      }
      if (!this.working) break;
      const full = this.running.size >= this.options.concurrency;
      if ((!claimedAny && !this.poked) || full) {
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

  private async execute(run: R): Promise<void> {
    const { logger } = this.options;
    const definition = this.registry.get(run.name);
    const controller = new AbortController();
    this.controllers.set(controller, run);
    const renew = this.store.renew?.bind(this.store);
    const heartbeat = renew
      ? setInterval(() => {
          renew(run).then(
            (held) => {
              if (!held) controller.abort(new LostClaimError());
            },
            (error: unknown) =>
              logger.warn({ err: error, jobId: run.id }, 'job lease renewal failed'),
          );
        }, this.store.renewEveryMs ?? 1000)
      : undefined;
    const timeout = setTimeout(
      () => controller.abort(new Error(`The job ran longer than ${definition.timeoutSeconds} s`)),
      definition.timeoutSeconds * 1000,
    );
    try {
      const payload = definition.payload.parse(run.payload);
      await raceAbort(
        definition.handle(payload, {
          jobId: run.id,
          attempt: run.attempt,
          signal: controller.signal,
          logger,
        }),
        controller.signal,
      );
    } catch (error) {
      await this.settleFailure(run, error, controller.signal.reason);
      return;
    } finally {
      this.controllers.delete(controller);
      clearInterval(heartbeat);
      clearTimeout(timeout);
    }
    await this.settle(() => this.store.complete(run));
  }

  /**
   * Writes a run's outcome, trying again while the database is unreachable (a restart takes a few
   * seconds): an outcome that is never written would leave the job claimed until its claim expires.
   */
  private async settle(write: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (attempt >= SETTLE_ATTEMPTS) throw error;
        this.options.logger.warn(
          { err: error, attempt },
          'could not record a job outcome; retrying',
        );
        await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, 5000)));
      }
    }
  }

  private async settleFailure(run: R, error: unknown, reason: unknown): Promise<void> {
    const { logger } = this.options;
    const job = { jobId: run.id, job: run.name };
    if (reason instanceof ShutdownError) {
      await this.settle(() => this.store.release(run));
      logger.info(job, 'job handed back to the queue at shutdown');
      return;
    }
    if (reason instanceof LostClaimError) {
      logger.warn(job, 'job abandoned: another worker took it over');
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (run.attempt < run.maxAttempts) {
      const delay = backoffMs(run.retryDelaySeconds, run.attempt);
      const retryAt = new Date(this.options.now().getTime() + delay);
      await this.settle(() => this.store.fail(run, message, retryAt));
      logger.warn({ ...job, attempt: run.attempt, err: error }, 'job failed; will retry');
    } else {
      await this.settle(() => this.store.fail(run, message, null));
      logger.error({ ...job, attempt: run.attempt, err: error }, 'job failed');
    }
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
