import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../test/test-database';
import { systemClock } from '../clock';
import { EmbeddedJobQueue } from './embedded';
import type { JobQueue } from './job-queue';
import { PgBossJobQueue } from './pgboss';
import { defineJob, JobRegistry, type JobDefinition } from './registry';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
/** Far longer than any limit below: a job can only start in time through the wake-up. */
const POLL_MS = 60_000;

const kinds: ('embedded' | 'pgboss')[] =
  testDialect() === 'postgres' ? ['embedded', 'pgboss'] : ['embedded'];

/**
 * Issue 18 §3: an idle worker starts a queued job at once, not at its next poll. The embedded
 * queue is woken in-process after the enqueuing transaction commits; pg-boss workers in other
 * processes by a NOTIFY sent in that transaction (here: a second queue instance on the database,
 * with its own connections, as a separate `worker` process has).
 */
describe.each(kinds)('job pick-up: %s', (kind) => {
  let database: TestDatabase;
  const opened: JobQueue[] = [];
  // Embedded: one process, so the serve and worker sides are one queue. pg-boss: two instances.
  const limitMs = kind === 'embedded' ? 200 : 500;

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((q) => q.close(100)));
    await database.cleanup();
  });

  async function makeQueue(definitions: JobDefinition[]): Promise<JobQueue> {
    const registry = new JobRegistry(definitions);
    const queue: JobQueue =
      kind === 'pgboss' && database.config.dialect === 'postgres'
        ? new PgBossJobQueue(database.db, registry, {
            connectionString: database.config.url,
            schema: `${database.searchPath}_boss`,
            concurrency: 1,
            pollIntervalMs: POLL_MS,
            leaseMs: 30_000,
            logger: silent,
          })
        : new EmbeddedJobQueue(database.db, registry, {
            concurrency: 1,
            pollIntervalMs: POLL_MS,
            leaseMs: 30_000,
            clock: systemClock,
            logger: silent,
          });
    await queue.open();
    opened.push(queue);
    return queue;
  }

  function timedJob() {
    const started: { label: string; at: number }[] = [];
    const job = defineJob({
      name: 'test.pickup',
      payload: z.object({ label: z.string() }),
      handle: (payload) => {
        started.push({ label: payload.label, at: performance.now() });
        return Promise.resolve();
      },
    });
    return { job, started };
  }

  async function startedWithin(
    started: { label: string; at: number }[],
    label: string,
    since: number,
  ): Promise<number> {
    const deadline = since + 5_000;
    for (;;) {
      const run = started.find((s) => s.label === label);
      if (run) return run.at - since;
      if (performance.now() > deadline) return Infinity;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it(`starts a job enqueued in a committed transaction within ${limitMs} ms, though the poll interval is 60 s`, async () => {
    const { job, started } = timedJob();
    const worker = await makeQueue([job]);
    // The serve side: the same queue when embedded, another instance (another process) on pg-boss.
    const server = kind === 'embedded' ? worker : await makeQueue([job]);
    await worker.startWorking();
    // The worker's first poll (at start) is over; from now on only a wake-up can start a job.
    await new Promise((resolve) => setTimeout(resolve, 300));

    for (const label of ['first', 'second', 'third']) {
      await database.db.transaction().execute(async (trx) => {
        await server.enqueue(job, { label }, { executor: trx });
      });
      const committed = performance.now();
      // What the services do after committing; for pg-boss it reaches only this process.
      server.notify();
      const delay = await startedWithin(started, label, committed);
      expect(delay, `${label} job's pick-up delay`).toBeLessThan(limitMs);
    }
  });

  it('does not start a job whose enqueuing transaction rolled back', async () => {
    const { job, started } = timedJob();
    const worker = await makeQueue([job]);
    const server = kind === 'embedded' ? worker : await makeQueue([job]);
    await worker.startWorking();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await server.enqueue(job, { label: 'rolled back' }, { executor: trx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    server.notify();
    await server.enqueue(job, { label: 'after' });
    const delay = await startedWithin(started, 'after', performance.now());
    expect(delay).toBeLessThan(5_000);
    expect(started.map((s) => s.label)).toEqual(['after']);
  });
});
