import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { JobRunner, type ClaimStore, type ClaimedRun } from './job-runner';
import { defineJob, JobRegistry } from './registry';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A claim store over an in-memory list whose first claim is held open until the test lets it
 * finish: the window in which a poke used to be lost (the loop was not asleep to be woken).
 */
class GatedStore implements ClaimStore<ClaimedRun> {
  readonly due: ClaimedRun[] = [];
  claims = 0;
  private releaseFirst: () => void = () => {};
  readonly firstClaimStarted: Promise<void>;
  private markStarted: () => void = () => {};

  constructor() {
    this.firstClaimStarted = new Promise((resolve) => (this.markStarted = resolve));
  }

  letFirstClaimFinish(): void {
    this.releaseFirst();
  }

  async claim(): Promise<ClaimedRun | undefined> {
    this.claims += 1;
    if (this.claims === 1) {
      // Looks (finds nothing), then is slow to answer, as a busy database would be.
      const found = this.due.shift();
      this.markStarted();
      await new Promise<void>((resolve) => (this.releaseFirst = resolve));
      return found;
    }
    return Promise.resolve(this.due.shift());
  }
  complete(): Promise<void> {
    return Promise.resolve();
  }
  fail(): Promise<void> {
    return Promise.resolve();
  }
  release(): Promise<void> {
    return Promise.resolve();
  }
}

describe('JobRunner wake-up', () => {
  let runner: JobRunner<ClaimedRun> | undefined;
  afterEach(async () => {
    await runner?.stop(100);
  });

  it('does not lose a poke that arrives while it is claiming: the job starts without waiting for the poll', async () => {
    const started: number[] = [];
    const job = defineJob({
      name: 'test.woken',
      payload: z.object({}),
      handle: () => {
        started.push(performance.now());
        return Promise.resolve();
      },
    });
    const store = new GatedStore();
    runner = new JobRunner(new JobRegistry([job]), store, {
      concurrency: 1,
      pollIntervalMs: 60_000,
      logger: silent,
      now: () => new Date(),
    });
    runner.start();
    await store.firstClaimStarted;
    // A job is committed and the worker poked after its claim looked but before it answered.
    store.due.push({
      id: 'j1',
      name: job.name,
      payload: {},
      attempt: 1,
      maxAttempts: 1,
      retryDelaySeconds: 0,
    });
    runner.poke();
    const poked = performance.now();
    store.letFirstClaimFinish();
    const deadline = poked + 2_000;
    while (started.length === 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(started).toHaveLength(1);
    expect((started[0] as number) - poked).toBeLessThan(200);
  });
});
