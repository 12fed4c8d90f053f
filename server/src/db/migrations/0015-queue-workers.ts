import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect-sql';

/**
 * Worker heartbeats for the pg-boss queue, which has no lease renewal of its own: each working
 * process keeps a row here fresh, and lists the jobs it is running. When a row goes stale (its
 * process was killed), any other worker hands that worker's running jobs back to the queue.
 * (The embedded queue keeps a lease on each job row instead; these tables stay empty there.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('queue_workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('heartbeat_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('queue_worker_jobs')
    // The queue's job id; with started_on it names one run of the job (a retry starts anew).
    .addColumn('job_id', 'text', (c) => c.primaryKey())
    .addColumn('job_name', 'text', (c) => c.notNull())
    .addColumn('worker_id', 'text', (c) => c.notNull())
    .addColumn('started_on', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('queue_worker_jobs_worker_idx')
    .on('queue_worker_jobs')
    .column('worker_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('queue_worker_jobs').execute();
  await db.schema.dropTable('queue_workers').execute();
}
