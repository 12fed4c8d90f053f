import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, losslessSettled, newUser } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp } from '../../../test/test-app';

const here = path.dirname(fileURLToPath(import.meta.url));
const workerScript = path.resolve(here, '../../../test/fixtures/processing-worker.ts');

describe('processing survives its worker dying', () => {
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-crash-'));
    // Long enough (about 3 s of encoding) that the 320k encode is still running when the
    // worker is killed, even on a busy machine.
    wav = await makeAudio(dir, 'wav', 90);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('completes with one set of outputs after the worker is killed mid-job', async () => {
    const t = await createTestApp();
    try {
      const owner = api(t, await newUser(t));
      const { version_id: versionId } = (await owner.upload({ path: wav }, {})).json<{
        version_id: string;
      }>();
      const child = spawn(process.execPath, ['--import', 'tsx', workerScript], {
        env: {
          ...process.env,
          WORKER_SETUP: JSON.stringify({
            database: t.database.config,
            searchPath: t.database.searchPath,
            storageDir: path.join(t.dir, 'objects'),
            tmpDir: t.deps.tmpDir,
            leaseMs: 1500,
          }),
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        // Its scratch folder appears once it has fetched the original and started encoding.
        await eventually(
          () =>
            fs.readdirSync(t.deps.tmpDir).some((name) => name.startsWith(`process-${versionId}`)),
          30_000,
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
      } finally {
        child.kill('SIGKILL');
      }
      await exited;
      const mid = (await owner.get(`/api/versions/${versionId}/processing`)).json<{
        status: string;
      }>();
      expect(mid.status).toBe('processing');

      await t.deps.jobs.startWorking();
      await eventually(
        async () =>
          (await owner.get(`/api/versions/${versionId}/processing`)).json<{ status: string }>()
            .status !== 'processing',
        90_000,
      );
      expect((await owner.get(`/api/versions/${versionId}/processing`)).json()).toMatchObject({
        status: 'completed',
        processing_complete: true,
      });
      await losslessSettled(t, versionId);
      expect((await t.deps.storage.list(`renditions/${versionId}/`)).map((o) => o.key)).toEqual([
        `renditions/${versionId}/high.mp3`,
        `renditions/${versionId}/lossless.flac`,
        `renditions/${versionId}/standard.mp3`,
      ]);
      expect(await t.deps.storage.list(`peaks/${versionId}`)).toHaveLength(1);
      // The version is completed inside the job; the job's own row settles just after it.
      const jobs = () =>
        t.deps.database.db
          .selectFrom('jobs')
          .select(['name', 'state', 'attempts'])
          .where('name', '=', 'media.process-version')
          .execute();
      await eventually(async () => (await jobs())[0]?.state !== 'active', 30_000);
      expect(await jobs()).toEqual([
        { name: 'media.process-version', state: 'completed', attempts: 2 },
      ]);
    } finally {
      await t.close();
    }
  }, 150_000);
});
