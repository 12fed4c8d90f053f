import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '../../test/api';
import { createTestApp, TestClock, type TestApp } from '../../test/test-app';
import { RateLimiter } from '../auth/rate-limiter';
import { pruneRateLimitsJob } from '../modules/auth/jobs';
import { startRecurring } from './recurring';

const MINUTE = 60_000;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('rate-limits.prune job', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  const keys = async () =>
    (await t.deps.database.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map(
      (row) => row.key,
    );

  it('removes the windows that are over, whatever their length, and nothing else', async () => {
    const clock = new TestClock();
    t = await createTestApp({ clock });
    const limiter = new RateLimiter(t.deps.database.db, clock);
    const minute = { name: 'minute', limit: 5, windowMs: MINUTE };
    const day = { name: 'day', limit: 5, windowMs: 24 * 60 * MINUTE };
    await limiter.hit(minute, 'over');
    await limiter.hit(minute, 'restarted');
    await limiter.hit(day, 'long');
    // Rows written before windows recorded their end: kept for a day.
    const twoDaysAgo = new Date(clock.now().getTime() - 48 * 60 * MINUTE).toISOString();
    const hourAgo = new Date(clock.now().getTime() - 60 * MINUTE).toISOString();
    await t.deps.database.db
      .insertInto('rate_limits')
      .values([
        { key: 'legacy:old', window_start: twoDaysAgo, count: 3, expires_at: null },
        { key: 'legacy:recent', window_start: hourAgo, count: 3, expires_at: null },
      ])
      .execute();

    clock.advance(2 * MINUTE);
    await limiter.hit(minute, 'restarted'); // its window was over: a new one starts now
    await limiter.hit(minute, 'fresh');
    await limiter.hit(day, 'long'); // counted in the same day-long window

    await t.deps.jobs.enqueue(pruneRateLimitsJob, {});
    await t.deps.jobs.startWorking();
    await eventually(async () => !(await keys()).includes('minute:over'), 10_000);
    expect(await keys()).toEqual(['day:long', 'legacy:recent', 'minute:fresh', 'minute:restarted']);
    // The counters that stayed still count.
    const long = await t.deps.database.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', 'day:long')
      .executeTakeFirstOrThrow();
    expect(long.count).toBe(2);

    clock.advance(24 * 60 * MINUTE);
    await t.deps.jobs.enqueue(pruneRateLimitsJob, {});
    await eventually(async () => (await keys()).length === 0, 10_000);
  });

  it('is enqueued at once and then every period by a working process', async () => {
    t = await createTestApp();
    const stop = startRecurring(t.deps.jobs, pruneRateLimitsJob, {}, 200, silent);
    onTestFinished(stop);
    const enqueued = async () =>
      (
        await t.deps.database.db
          .selectFrom('jobs')
          .select('id')
          .where('name', '=', pruneRateLimitsJob.name)
          .execute()
      ).length;
    await eventually(async () => (await enqueued()) >= 1, 5_000);
    await eventually(async () => (await enqueued()) >= 3, 5_000);
    stop();
  });
});

describe('rate-limits.prune job and the code-failure budgets', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('forgets a budget once its day is over and any lock-out ended a week ago', async () => {
    const clock = new TestClock();
    t = await createTestApp({ clock });
    const db = t.deps.database.db;
    const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
    const DAY = 24 * 60 * MINUTE;
    await db
      .insertInto('magic_code_failures')
      .values([
        { email: 'today@example.com', failures: 3, window_start: at(-MINUTE), locked_until: null },
        { email: 'old@example.com', failures: 3, window_start: at(-2 * DAY), locked_until: null },
        {
          email: 'locked-lately@example.com',
          failures: 0,
          window_start: at(-3 * DAY),
          locked_until: at(-2 * DAY),
        },
        {
          email: 'locked-long-ago@example.com',
          failures: 0,
          window_start: at(-9 * DAY),
          locked_until: at(-8 * DAY),
        },
      ])
      .execute();
    const emails = async () =>
      (await db.selectFrom('magic_code_failures').select('email').orderBy('email').execute()).map(
        (row) => row.email,
      );
    await t.deps.jobs.enqueue(pruneRateLimitsJob, {});
    await t.deps.jobs.startWorking();
    await eventually(async () => !(await emails()).includes('old@example.com'), 10_000);
    expect(await emails()).toEqual(['locked-lately@example.com', 'today@example.com']);
  });
});
