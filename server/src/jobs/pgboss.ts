import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../db/schema';
import type { EnqueueOptions, JobQueue } from './job-queue';
import { JobRunner, type ClaimStore, type ClaimedRun } from './job-runner';
import { announceJob, jobChannel, JobWakeup } from './pg-wakeup';
import type { JobLogger, JobRef, JobRegistry } from './registry';

export interface PgBossQueueOptions {
  connectionString: string;
  /** PostgreSQL schema pg-boss keeps its tables in. */
  schema?: string;
  concurrency: number;
  pollIntervalMs: number;
  /**
   * A worker whose heartbeat is older than this is taken for dead, and any other worker hands its
   * running jobs back to the queue. It beats every third of it.
   */
  leaseMs: number;
  /** How often pg-boss's own maintenance (expiry backstop, archiving) runs. */
  maintenanceIntervalSeconds?: number;
  logger: JobLogger;
}

const ABANDONED = JSON.stringify({ message: 'The worker running this job stopped responding' });

/**
 * The same JobQueue on pg-boss, for PostgreSQL deployments with separate worker processes.
 *
 * pg-boss stores, enqueues (inside our transactions), expires and archives the jobs. It has no
 * lease renewal, so a job whose worker was killed would wait out its whole time limit (the media
 * timeout: 15 minutes). So this queue claims jobs itself, in one statement that also records the
 * run under this worker in `queue_worker_jobs`; every worker keeps a heartbeat in `queue_workers`,
 * and each beat also sweeps: a worker whose heartbeat went stale has its running jobs handed back
 * (as graphile-worker recovers the jobs of a dead worker). A run is settled only by the worker that
 * still holds it (same job, same `started_on`), so a worker taken for dead can never settle a run
 * another worker has since claimed.
 */
export class PgBossJobQueue implements JobQueue, ClaimStore<ClaimedRun> {
  readonly kind = 'pgboss' as const;
  readonly workerId = randomUUID();
  private readonly boss: PgBoss;
  private readonly schema: string;
  private readonly runner: JobRunner<ClaimedRun>;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly channel: string;
  private wakeup: JobWakeup | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly registry: JobRegistry,
    private readonly options: PgBossQueueOptions,
  ) {
    this.schema = options.schema ?? 'pgboss';
    if (!/^[a-z_][a-z0-9_]*$/i.test(this.schema)) {
      throw new Error(`Invalid pg-boss schema name: ${this.schema}`);
    }
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: this.schema,
      max: 3,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    this.boss.on('error', (error) => options.logger.error({ err: error }, 'pg-boss error'));
    this.channel = jobChannel(this.schema);
    this.runner = new JobRunner(registry, this, {
      concurrency: options.concurrency,
      pollIntervalMs: options.pollIntervalMs,
      logger: options.logger,
      now: () => new Date(),
    });
  }

  async open(): Promise<void> {
    await this.boss.start();
    for (const definition of this.registry.definitions()) {
      const queueOptions = {
        name: definition.name,
        retryLimit: definition.retryLimit,
        retryDelay: definition.retryDelaySeconds,
        retryBackoff: true,
        // A backstop only: the runner aborts a run at its time limit, and dead workers are swept.
        expireInSeconds: definition.timeoutSeconds + 60,
      };
      await this.boss.createQueue(definition.name, queueOptions);
      await this.boss.updateQueue(definition.name, queueOptions);
    }
    const waiting = await this.boss
      .getDb()
      .executeSql(
        `select distinct name from ${this.schema}.job where state in ('created', 'retry', 'active')`,
        [],
      );
    this.registry.assertHandled(waiting.rows.map((row: { name: string }) => row.name));
  }

  async enqueue<P>(job: JobRef<P>, payload: P, options: EnqueueOptions = {}): Promise<string> {
    const definition = this.registry.get(job.name);
    const parsed = definition.payload.parse(payload) as object;
    const id = await this.boss.send(definition.name, parsed, {
      db: options.executor ? kyselyExecutor(options.executor) : undefined,
      startAfter: options.delayMs ? new Date(Date.now() + options.delayMs) : undefined,
    });
    if (!id) throw new Error(`pg-boss did not accept job ${definition.name}`);
    // Wakes the idle workers of every process (once the enqueuing transaction commits).
    await announceJob(options.executor ?? this.db, this.channel);
    if (!options.executor) this.runner.poke();
    return id;
  }

  notify(): void {
    this.runner.poke();
  }

  async startWorking(): Promise<void> {
    if (this.runner.isWorking) return;
    await this.register();
    // A worker started after a crash recovers the dead one's jobs as soon as they are due.
    await this.sweep();
    this.wakeup = new JobWakeup({
      connectionString: this.options.connectionString,
      channel: this.channel,
      onJob: () => this.runner.poke(),
      logger: this.options.logger,
    });
    await this.wakeup.open();
    const every = Math.max(Math.floor(this.options.leaseMs / 3), 100);
    this.heartbeat = setInterval(() => {
      this.beating ??= this.beat().finally(() => (this.beating = undefined));
    }, every);
    this.runner.start();
  }

  /**
   * Stops taking jobs and gives running ones `graceMs` to finish; then aborts them and hands them
   * back uncounted. The heartbeat goes on meanwhile, so nobody takes this worker for dead.
   */
  close(graceMs = 10_000): Promise<void> {
    this.closing ??= this.closeOnce(graceMs);
    return this.closing;
  }

  private async closeOnce(graceMs: number): Promise<void> {
    await this.wakeup?.close();
    await this.runner.stop(graceMs);
    clearInterval(this.heartbeat);
    await this.beating;
    if (this.heartbeat) {
      await sql`delete from queue_workers where id = ${this.workerId}`.execute(this.db);
      await sql`delete from queue_worker_jobs where worker_id = ${this.workerId}`.execute(this.db);
    }
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  /** The state pg-boss holds for a job (for tests and diagnostics). */
  async jobState(name: string, id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(name, id);
    return job?.state;
  }

  // ---- ClaimStore: the runner claims and settles through these ----

  async claim(): Promise<ClaimedRun | undefined> {
    const names = this.registry.names();
    if (names.length === 0) return undefined;
    const job = sql.raw(`${this.schema}.job`);
    // pg-boss's own fetch, over every queue at once, recording the run under this worker.
    const result = await sql<{
      id: string;
      name: string;
      data: unknown;
      retry_count: number;
      retry_limit: number;
      retry_delay: number;
    }>`
      with next as (
        select name, id from ${job}
        where name = any(${names}::text[]) and state < 'active' and start_after < now()
        order by priority desc, created_on, id
        limit 1
        for update skip locked
      ), claimed as (
        update ${job} j set
          state = 'active',
          started_on = now(),
          retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
        from next
        where j.name = next.name and j.id = next.id
        returning j.id, j.name, j.data, j.retry_count, j.retry_limit, j.retry_delay, j.started_on
      ), registered as (
        insert into queue_worker_jobs (job_id, job_name, worker_id, started_on)
        select id::text, name, ${this.workerId}, started_on from claimed
        on conflict (job_id) do update set
          job_name = excluded.job_name, worker_id = excluded.worker_id, started_on = excluded.started_on
      )
      select id::text as id, name, data, retry_count, retry_limit, retry_delay from claimed
    `.execute(this.db);
    const row = result.rows[0];
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      payload: row.data,
      attempt: row.retry_count + 1,
      maxAttempts: row.retry_limit + 1,
      retryDelaySeconds: row.retry_delay,
    };
  }

  complete(run: ClaimedRun): Promise<void> {
    return this.settle(run, sql`state = 'completed', completed_on = now(), output = null`);
  }

  fail(run: ClaimedRun, message: string, retryAt: Date | null): Promise<void> {
    const output = JSON.stringify({ message });
    return this.settle(
      run,
      retryAt
        ? sql`state = 'retry', start_after = ${retryAt}, output = ${output}::jsonb`
        : sql`state = 'failed', completed_on = now(), output = ${output}::jsonb`,
    );
  }

  release(run: ClaimedRun): Promise<void> {
    // Not counted: with no started_on, the next claim does not add a retry.
    return this.settle(run, sql`state = 'created', started_on = null, start_after = now()`);
  }

  /** Applies `set` to the job only while this worker still holds this very run of it. */
  private async settle(run: ClaimedRun, set: ReturnType<typeof sql>): Promise<void> {
    await sql`
      with mine as (
        delete from queue_worker_jobs
        where job_id = ${run.id} and worker_id = ${this.workerId}
        returning started_on
      )
      update ${sql.raw(`${this.schema}.job`)} j set ${set}
      from mine
      where j.name = ${run.name} and j.id = ${run.id}::uuid
        and j.state = 'active' and j.started_on = mine.started_on
    `.execute(this.db);
  }

  // ---- heartbeat and sweeping ----

  private async register(): Promise<void> {
    await sql`
      insert into queue_workers (id, host, pid, started_at, heartbeat_at)
      values (${this.workerId}, ${os.hostname()}, ${process.pid}, now(), now())
      on conflict (id) do update set heartbeat_at = now()
    `.execute(this.db);
  }

  private async beat(): Promise<void> {
    try {
      const beat = await sql`
        update queue_workers set heartbeat_at = now() where id = ${this.workerId}
      `.execute(this.db);
      if (Number(beat.numAffectedRows ?? 0) === 0) {
        // Taken for dead (stalled longer than the lease): its runs belong to other workers now.
        this.options.logger.warn(
          { worker: this.workerId },
          'this worker was taken for dead; its running jobs went to other workers',
        );
        this.runner.abandonAll();
        await this.register();
      }
      await this.sweep();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'worker heartbeat failed');
    }
  }

  /** Hands the running jobs of every worker whose heartbeat went stale back to the queue. */
  private async sweep(): Promise<void> {
    const result = await sql<{ id: string; name: string }>`
      with dead as (
        delete from queue_workers
        where heartbeat_at < now() - make_interval(secs => ${this.options.leaseMs / 1000})
        returning id
      ), orphaned as (
        delete from queue_worker_jobs w using dead
        where w.worker_id = dead.id
        returning w.job_id, w.job_name, w.started_on
      )
      update ${sql.raw(`${this.schema}.job`)} j set
        state = case when j.retry_count < j.retry_limit then 'retry' else 'failed' end::${sql.raw(`${this.schema}.job_state`)},
        start_after = now(),
        completed_on = case when j.retry_count < j.retry_limit then null else now() end,
        output = ${ABANDONED}::jsonb
      from orphaned o
      where j.name = o.job_name and j.id = o.job_id::uuid
        and j.state = 'active' and j.started_on = o.started_on
      returning j.id::text as id, j.name
    `.execute(this.db);
    for (const job of result.rows) {
      this.options.logger.warn(
        { jobId: job.id, job: job.name },
        'job handed back to the queue: its worker stopped responding',
      );
    }
    if (result.rows.length > 0) this.runner.poke();
  }
}

// pg-boss writes through our transaction, so the job commits or rolls back with it.
function kyselyExecutor(executor: Kysely<Database>): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) => {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows };
    },
  };
}
