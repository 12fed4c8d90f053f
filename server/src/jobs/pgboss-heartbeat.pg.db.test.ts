import { sql } from 'kysely';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { PgBossJobQueue } from './pgboss';
import { defineJob, JobRegistry, type JobDefinition } from './registry';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const LEASE_MS = 1500;

/**
 * pg-boss has no lease renewal: these prove the worker heartbeat that stands in for it. Jobs here
 * have a time limit of an hour, so only the heartbeat can bring a run back within the test.
 */
describe('pg-boss queue: worker heartbeat', () => {
  let database: TestDatabase;
  const opened: PgBossJobQueue[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((q) => q.close(100)));
    await database.cleanup();
  });

  async function makeQueue(definitions: JobDefinition[]): Promise<PgBossJobQueue> {
    if (database.config.dialect !== 'postgres') throw new Error('postgres only');
    const queue = new PgBossJobQueue(database.db, new JobRegistry(definitions), {
      connectionString: database.config.url,
      schema: `${database.searchPath}_boss`,
      concurrency: 1,
      pollIntervalMs: 100,
      leaseMs: LEASE_MS,
      logger: silent,
    });
    await queue.open();
    opened.push(queue);
    return queue;
  }

  async function bossJob(id: string) {
    const result = await sql<{ state: string; retry_count: number; started_on: Date | null }>`
      select state, retry_count, started_on
      from ${sql.raw(`${database.searchPath}_boss.job`)} where id = ${id}::uuid
    `.execute(database.db);
    return result.rows[0];
  }

  async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A job that runs until the test lets it go, recording each run and whether it was aborted. */
  function gatedJob() {
    const runs: { attempt: number; aborted: boolean }[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const job = defineJob({
      name: 'test.gated',
      payload: z.object({}),
      retryLimit: 2,
      retryDelaySeconds: 0,
      timeoutSeconds: 3600,
      handle: async (_payload, context) => {
        const run = { attempt: context.attempt, aborted: false };
        runs.push(run);
        context.signal.addEventListener('abort', () => (run.aborted = true));
        if (context.attempt === 1) await gate;
      },
    });
    return { job, runs, release: () => release() };
  }

  it('hands a stalled worker’s run to a live worker, and the stalled one cannot settle it', async () => {
    const { job, runs, release } = gatedJob();
    const stalled = await makeQueue([job]);
    const id = await stalled.enqueue(job, {});
    await stalled.startWorking();
    await eventually(() => runs.length === 1);
    // Its heartbeat stops being written (as when a process hangs or is killed).
    await sql`update queue_workers set heartbeat_at = now() - interval '1 hour'
      where id = ${stalled.workerId}`.execute(database.db);

    const live = await makeQueue([job]);
    await live.startWorking();
    await eventually(() => runs.length === 2);
    expect(runs[1]?.attempt).toBe(2);
    await eventually(async () => (await bossJob(id))?.state === 'completed');
    // The stalled worker learns at its next beat that its run went elsewhere, and lets go of it.
    await eventually(() => runs[0]?.aborted === true, 5000);
    release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await bossJob(id)).toMatchObject({ state: 'completed', retry_count: 1 });
    expect(runs).toHaveLength(2);
    const workers = await sql<{ id: string }>`select id from queue_workers`.execute(database.db);
    expect(workers.rows.map((w) => w.id).sort()).toEqual([stalled.workerId, live.workerId].sort());
    const held = await sql`select job_id from queue_worker_jobs`.execute(database.db);
    expect(held.rows).toEqual([]);
  });

  it('at shutdown, aborts a run that overstays the grace period and hands it back uncounted', async () => {
    const { job, runs } = gatedJob();
    const queue = await makeQueue([job]);
    const id = await queue.enqueue(job, {});
    await queue.startWorking();
    await eventually(() => runs.length === 1);
    await queue.close(100);
    opened.splice(opened.indexOf(queue), 1);
    expect(runs[0]?.aborted).toBe(true);
    expect(await bossJob(id)).toMatchObject({ state: 'created', retry_count: 0, started_on: null });
    const workers = await sql`select id from queue_workers`.execute(database.db);
    expect(workers.rows).toEqual([]);

    // The next worker runs it as a first attempt.
    const next = await makeQueue([job]);
    await next.startWorking();
    await eventually(() => runs.length === 2);
    expect(runs[1]?.attempt).toBe(1);
  });

  it('marks a run failed for good when its retries are used up, keeping the message', async () => {
    const broken = defineJob({
      name: 'test.broken',
      payload: z.object({}),
      retryLimit: 1,
      retryDelaySeconds: 0,
      timeoutSeconds: 3600,
      handle: () => Promise.reject(new Error('always broken')),
    });
    const queue = await makeQueue([broken]);
    const id = await queue.enqueue(broken, {});
    await queue.startWorking();
    await eventually(async () => (await bossJob(id))?.state === 'failed');
    const output = await sql<{ output: { message: string }; retry_count: number }>`
      select output, retry_count from ${sql.raw(`${database.searchPath}_boss.job`)}
      where id = ${id}::uuid
    `.execute(database.db);
    expect(output.rows[0]).toMatchObject({ retry_count: 1, output: { message: 'always broken' } });
  });
});
