import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { deleteObjectsJob } from './jobs';

describe('storage.delete-objects job', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('removes the listed objects, and running it again is harmless', async () => {
    t = await createTestApp();
    const { storage, jobs } = t.deps;
    for (const key of ['originals/a', 'originals/b', 'originals/keep']) {
      await storage.put(key, Readable.from([Buffer.from(key)]));
    }
    const job = deleteObjectsJob;
    await jobs.enqueue(job, { keys: ['originals/a', 'originals/b'] });
    await jobs.enqueue(job, { keys: ['originals/a', 'originals/b'] });
    await jobs.startWorking();
    const deadline = Date.now() + 10_000;
    while ((await storage.list('originals/')).length !== 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await storage.list('originals/')).map((o) => o.key)).toEqual(['originals/keep']);
  });

  it('refuses an empty key list', async () => {
    t = await createTestApp();
    await expect(t.deps.jobs.enqueue(deleteObjectsJob, { keys: [] })).rejects.toThrow();
  });
});
