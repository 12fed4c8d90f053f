import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { EmbeddedJobQueue } from './embedded';
import type { JobQueue } from './job-queue';
import { PgBossJobQueue } from './pgboss';
import type { JobLogger, JobRegistry } from './registry';

/** The one place that picks the job queue from configuration. */
export function createJobQueue(
  config: Config,
  db: Kysely<Database>,
  registry: JobRegistry,
  clock: Clock,
  logger: JobLogger,
): JobQueue {
  switch (config.jobs.queue) {
    case 'embedded':
      return new EmbeddedJobQueue(db, registry, {
        concurrency: config.jobs.concurrency,
        pollIntervalMs: config.jobs.pollIntervalMs,
        leaseMs: config.jobs.leaseSeconds * 1000,
        clock,
        logger,
      });
    case 'pgboss':
      if (config.database.dialect !== 'postgres') {
        throw new Error('JOB_QUEUE=pgboss needs a PostgreSQL DATABASE_URL');
      }
      return new PgBossJobQueue(db, registry, {
        connectionString: config.database.url,
        schema: config.jobs.pgbossSchema,
        concurrency: config.jobs.concurrency,
        pollIntervalMs: config.jobs.pollIntervalMs,
        leaseMs: config.jobs.leaseSeconds * 1000,
        logger,
      });
  }
}
