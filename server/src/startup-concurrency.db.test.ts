import { afterEach, describe, expect, it } from 'vitest';
import { Cluster } from '../test/cluster';
import { testDialect } from '../test/test-database';

/**
 * Real `serve` and `worker` processes started in the same instant on one fresh database:
 * every one of them must come up (no "deadlock detected" from concurrent start-up work).
 */
describe(`processes started together (${testDialect()})`, () => {
  let cluster: Cluster | undefined;

  // Whatever a test left when it failed or ran out of time: no process or database outlives it.
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  if (testDialect() === 'postgres') {
    it('3 serve + 2 worker on a fresh database come up every time (pg-boss, 10 rounds)', async () => {
      for (let round = 1; round <= 10; round++) {
        await startTogether('pgboss', 'postgres', `pgboss round ${round}`);
      }
      // About a minute on an idle 2-core machine; the limit leaves room for a busy one.
    }, 300_000);

    it('3 serve + 2 worker on a fresh database come up (embedded queue)', async () => {
      await startTogether('embedded', 'postgres', 'embedded round');
    }, 60_000);
  } else {
    it('3 serve + 2 worker on a fresh SQLite file come up every time (embedded queue, 3 rounds)', async () => {
      for (let round = 1; round <= 3; round++) {
        await startTogether('embedded', 'sqlite', `sqlite round ${round}`);
      }
    }, 150_000);
  }

  async function startTogether(
    queue: 'pgboss' | 'embedded',
    dialect: 'sqlite' | 'postgres',
    label: string,
  ): Promise<void> {
    cluster = await Cluster.create('startup', { dialect, queue });
    const processes = await cluster.startTogether([
      { name: 'serve-1', command: 'serve' },
      { name: 'serve-2', command: 'serve' },
      { name: 'serve-3', command: 'serve' },
      { name: 'worker-1', command: 'worker' },
      { name: 'worker-2', command: 'worker' },
    ]);
    const up = await Promise.allSettled(processes.map((p) => p.ready(45_000)));
    const failed = up.filter((result) => result.status === 'rejected');
    expect(failed, `${label}:\n${cluster.outputs()}`).toEqual([]);
    // Start-up is under test, not shutdown: end them at once.
    await cluster.close();
    cluster = undefined;
  }
});
