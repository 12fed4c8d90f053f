import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEffects, recordingJob } from '../../test/fixtures/recording-job';
import { createTestDatabase, testDialect, type TestDatabase } from '../../test/test-database';
import { systemClock } from '../clock';
import { EmbeddedJobQueue } from './embedded';
import type { JobQueue } from './job-queue';
import { PgBossJobQueue } from './pgboss';
import { defineJob, JobRegistry, type JobDefinition } from './registry';

const here = path.dirname(fileURLToPath(import.meta.url));
const workerScript = path.resolve(here, '../../test/fixtures/job-worker.ts');
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const LEASE_MS = 1500;

const kinds: ('embedded' | 'pgboss')[] =
  testDialect() === 'postgres' ? ['embedded', 'pgboss'] : ['embedded'];

describe.each(kinds)('job queue: %s', (kind) => {
  let database: TestDatabase;
  let tmp: string;
  const opened: JobQueue[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-jobs-'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((q) => q.close()));
    await database.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const bossSchema = () => `${database.searchPath}_boss`;

  async function makeQueue(definitions: JobDefinition[]): Promise<JobQueue> {
    const registry = new JobRegistry(definitions);
    const queue: JobQueue =
      kind === 'pgboss' && database.config.dialect === 'postgres'
        ? new PgBossJobQueue(database.db, registry, {
            connectionString: database.config.url,
            schema: bossSchema(),
            concurrency: 2,
            pollIntervalMs: 200,
            leaseMs: LEASE_MS,
            maintenanceIntervalSeconds: 1,
            logger: silent,
          })
        : new EmbeddedJobQueue(database.db, registry, {
            concurrency: 2,
            pollIntervalMs: 50,
            leaseMs: LEASE_MS,
            clock: systemClock,
            logger: silent,
          });
    await queue.open();
    opened.push(queue);
    return queue;
  }

  async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('runs an enqueued job with its parsed payload', async () => {
    const seen: unknown[] = [];
    const job = defineJob({
      name: 'test.collect',
      payload: z.object({ n: z.number() }),
      handle: (payload) => {
        seen.push(payload);
        return Promise.resolve();
      },
    });
    const queue = await makeQueue([job]);
    await queue.enqueue(job, { n: 1 });
    await queue.enqueue(job, { n: 2 });
    await queue.startWorking();
    await eventually(() => seen.length === 2);
    expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
  });

  it('refuses a job without a handler and a payload that does not match its schema', async () => {
    const known = defineJob({
      name: 'test.known',
      payload: z.object({ n: z.number() }),
      handle: () => Promise.resolve(),
    });
    const unknown = defineJob({
      name: 'test.unknown',
      payload: z.object({}),
      handle: () => Promise.resolve(),
    });
    const queue = await makeQueue([known]);
    await expect(queue.enqueue(unknown, {})).rejects.toThrow(
      'Job "test.unknown" has no handler registered',
    );
    await expect(queue.enqueue(known, { n: 'x' } as unknown as { n: number })).rejects.toThrow();
  });

  it('retries a failing job with backoff until it succeeds', async () => {
    const attempts: number[] = [];
    const job = defineJob({
      name: 'test.flaky',
      payload: z.object({}),
      retryLimit: 3,
      retryDelaySeconds: 0,
      handle: (_payload, context) => {
        attempts.push(context.attempt);
        return context.attempt < 3 ? Promise.reject(new Error('not yet')) : Promise.resolve();
      },
    });
    const queue = await makeQueue([job]);
    await queue.enqueue(job, {});
    await queue.startWorking();
    await eventually(() => attempts.length === 3);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('enqueues inside a transaction: a rolled-back transaction leaves no job', async () => {
    const ran: string[] = [];
    const job = defineJob({
      name: 'test.tx',
      payload: z.object({ label: z.string() }),
      handle: (payload) => {
        ran.push(payload.label);
        return Promise.resolve();
      },
    });
    const queue = await makeQueue([job]);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await queue.enqueue(job, { label: 'rolled back' }, { executor: trx });
        throw new Error('abort the transaction');
      }),
    ).rejects.toThrow('abort the transaction');
    await database.db.transaction().execute(async (trx) => {
      await queue.enqueue(job, { label: 'committed' }, { executor: trx });
    });
    await queue.startWorking();
    await eventually(() => ran.length === 1);
    // Give a wrongly-queued second job the chance to run before asserting it did not.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(ran).toEqual(['committed']);
  });

  it('fails at start-up when a queued job has no handler', async () => {
    const job = defineJob({
      name: 'test.orphan',
      payload: z.object({}),
      handle: () => Promise.resolve(),
    });
    const first = await makeQueue([job]);
    await first.enqueue(job, {});
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    const other = defineJob({
      name: 'test.other',
      payload: z.object({}),
      handle: () => Promise.resolve(),
    });
    await expect(makeQueue([other])).rejects.toThrow(
      'Queued jobs have no handler registered: test.orphan',
    );
  });

  it('runs a job again after its worker process is killed mid-job, and completes it once', async () => {
    const effects = path.join(tmp, 'effects.log');
    const job = recordingJob(effects);
    const queue = await makeQueue([job]);
    await queue.enqueue(job, { label: 'crash', hangOnAttempt: 1 });

    const child = spawn(process.execPath, ['--import', 'tsx', workerScript], {
      env: {
        ...process.env,
        WORKER_SETUP: JSON.stringify({
          database: database.config,
          searchPath: database.searchPath,
          queue: kind,
          bossSchema: kind === 'pgboss' ? bossSchema() : undefined,
          effectsFile: effects,
          leaseMs: LEASE_MS,
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await eventually(
        () => readEffects(effects).some((l) => l.startsWith('start crash attempt=1')),
        30_000,
      );
    } finally {
      child.kill('SIGKILL');
    }
    await exited;
    expect(readEffects(effects)).toEqual([`start crash attempt=1 pid=${child.pid}`]);

    // This process now works the queue; it may claim the job only after the dead lease expires.
    await queue.startWorking();
    await eventually(() => readEffects(effects).some((l) => l.startsWith('done')), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = readEffects(effects);
    expect(lines).toEqual([
      `start crash attempt=1 pid=${child.pid}`,
      `start crash attempt=2 pid=${process.pid}`,
      'done crash attempt=2',
    ]);
  }, 60_000);

  if (kind === 'embedded') {
    it('never lets two workers run the same job', async () => {
      const runs: string[] = [];
      const job = defineJob({
        name: 'test.once',
        payload: z.object({ i: z.number() }),
        handle: async (payload) => {
          runs.push(String(payload.i));
          await new Promise((resolve) => setTimeout(resolve, 5));
        },
      });
      const a = await makeQueue([job]);
      const b = await makeQueue([job]);
      for (let i = 0; i < 30; i++) await a.enqueue(job, { i });
      await Promise.all([a.startWorking(), b.startWorking()]);
      await eventually(() => runs.length >= 30);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs.sort()).toEqual(Array.from({ length: 30 }, (_, i) => String(i)).sort());
      const states = await database.db.selectFrom('jobs').select('state').execute();
      expect(states.every((s) => s.state === 'completed')).toBe(true);
    });

    it('marks a job failed after its retries are used up, keeping the last error', async () => {
      const job = defineJob({
        name: 'test.broken',
        payload: z.object({}),
        retryLimit: 1,
        retryDelaySeconds: 0,
        handle: () => Promise.reject(new Error('always broken')),
      });
      const queue = await makeQueue([job]);
      const id = await queue.enqueue(job, {});
      await queue.startWorking();
      await eventually(async () => {
        const row = await database.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirst();
        return row?.state === 'failed';
      });
      const row = await database.db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 2, last_error: 'always broken', lock_token: null });
    });

    it('at shutdown, aborts a job that overstays the grace period and hands it back uncounted', async () => {
      let started = false;
      let sawAbort = false;
      const job = defineJob({
        name: 'test.long',
        payload: z.object({}),
        handle: (_payload, context) =>
          new Promise<void>((resolve) => {
            started = true;
            context.signal.addEventListener('abort', () => {
              sawAbort = true;
              resolve();
            });
          }),
      });
      const queue = (await makeQueue([job])) as EmbeddedJobQueue;
      const id = await queue.enqueue(job, {});
      await queue.startWorking();
      await eventually(() => started);
      await queue.close(100);
      opened.splice(opened.indexOf(queue), 1);
      expect(sawAbort).toBe(true);
      const row = await database.db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        state: 'queued',
        attempts: 0,
        lock_token: null,
        lease_expires_at: null,
      });
    });

    it('survives a restart: jobs queued before a restart run after it', async () => {
      const ran: number[] = [];
      const job = defineJob({
        name: 'test.persist',
        payload: z.object({ n: z.number() }),
        handle: (payload) => {
          ran.push(payload.n);
          return Promise.resolve();
        },
      });
      const before = await makeQueue([job]);
      await before.enqueue(job, { n: 7 });
      await before.close();
      const count = await sql<{
        c: number;
      }>`select count(*) as c from jobs where state = 'queued'`.execute(database.db);
      expect(Number(count.rows[0]?.c)).toBe(1);
      const after = await makeQueue([job]);
      await after.startWorking();
      await eventually(() => ran.length === 1);
      expect(ran).toEqual([7]);
    });
  }
});
