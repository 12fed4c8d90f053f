import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../db/schema';
import type { EnqueueOptions, JobQueue } from './job-queue';
import type { JobLogger, JobRef, JobRegistry } from './registry';

export interface PgBossQueueOptions {
  connectionString: string;
  /** PostgreSQL schema pg-boss keeps its tables in. */
  schema?: string;
  concurrency: number;
  pollIntervalMs: number;
  /** How often expired active jobs (dead workers) are detected. */
  maintenanceIntervalSeconds?: number;
  logger: JobLogger;
}

/** The same JobQueue on pg-boss, for PostgreSQL deployments with separate worker processes. */
export class PgBossJobQueue implements JobQueue {
  readonly kind = 'pgboss' as const;
  private readonly boss: PgBoss;
  private readonly schema: string;

  constructor(
    private readonly registry: JobRegistry,
    private readonly options: PgBossQueueOptions,
  ) {
    this.schema = options.schema ?? 'pgboss';
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: this.schema,
      max: Math.max(options.concurrency + 2, 4),
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    this.boss.on('error', (error) => options.logger.error({ err: error }, 'pg-boss error'));
  }

  async open(): Promise<void> {
    await this.boss.start();
    for (const definition of this.registry.definitions()) {
      const queueOptions = {
        name: definition.name,
        retryLimit: definition.retryLimit,
        retryDelay: definition.retryDelaySeconds,
        retryBackoff: true,
        // pg-boss has no lease renewal, so a run may last its whole time limit.
        expireInSeconds: definition.timeoutSeconds,
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
    return id;
  }

  notify(): void {
    // pg-boss workers poll on their own interval; nothing to do.
  }

  async startWorking(): Promise<void> {
    for (const definition of this.registry.definitions()) {
      // One pg-boss worker per slot: each fetches and runs one job at a time.
      for (let slot = 0; slot < this.options.concurrency; slot++) {
        await this.boss.work<unknown>(
          definition.name,
          {
            batchSize: 1,
            includeMetadata: true,
            pollingIntervalSeconds: Math.max(this.options.pollIntervalMs / 1000, 0.5),
          },
          async ([job]) => {
            if (!job) return;
            const controller = new AbortController();
            const timer = setTimeout(
              () =>
                controller.abort(
                  new Error(`The job ran longer than ${definition.timeoutSeconds} s`),
                ),
              definition.timeoutSeconds * 1000,
            );
            try {
              await definition.handle(definition.payload.parse(job.data), {
                jobId: job.id,
                attempt: job.retryCount + 1,
                signal: controller.signal,
                logger: this.options.logger,
              });
            } finally {
              clearTimeout(timer);
            }
          },
        );
      }
    }
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  }

  /** The state pg-boss holds for a job (for tests and diagnostics). */
  async jobState(name: string, id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(name, id);
    return job?.state;
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
