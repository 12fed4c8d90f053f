import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bounce, PublishResponse } from '@takes/contract';
import { makeAudio } from '../../../test/audio-fixtures';
import { buildRepo } from '../../../test/factories';
import {
  completeUpload,
  exists,
  publishUpload,
  runJobs,
  setupStoredAudio,
  uploadsWith,
  uploadVersion,
} from '../../../test/stored-audio-setup';
import { deleteOriginalIfUnused } from './stored-audio';

const here = path.dirname(fileURLToPath(import.meta.url));
const holderScript = path.resolve(here, '../../../test/fixtures/original-ref-holder.ts');

let dir: string;
let wav: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-stored-'));
  wav = await makeAudio(dir, 'wav', 2, 'Shared Take.wav');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('stored originals and clean-up', () => {
  let c: Awaited<ReturnType<typeof setupStoredAudio>>;
  afterEach(async () => {
    await c.t.close();
  });

  it('keeps the original of a re-upload when the clean-up of its deleted twin runs between storing it and creating the version', async () => {
    c = await setupStoredAudio();
    const { t, owner } = c;
    const first = await uploadVersion(t, owner, wav);
    await runJobs(t);
    expect((await owner.delete(`/api/versions/${first.version_id}`)).statusCode).toBe(204);

    let ranCleanup = false;
    const uploads = uploadsWith(t, async () => {
      // The clean-up job of the deleted version runs exactly now.
      await runJobs(t);
      ranCleanup = true;
    });
    const file = await uploads.receive(fs.createReadStream(wav), 'Shared Take.wav');
    const second = await uploads.createVersion(first.ownerId, file, {
      project_id: first.project_id,
      branch_id: first.branch_id,
      commit_message: 'Same take again',
    });
    await uploads.discard(file);
    expect(ranCleanup).toBe(true);
    expect(await exists(t, first.key)).toBe(true);

    const stream = await owner.get(`/api/versions/${second.version_id}/stream?quality=original`);
    expect(stream.statusCode, stream.body).toBe(200);
    expect(stream.rawPayload.length).toBe(fs.statSync(wav).size);
    await runJobs(t);
    const processing = (await owner.get(`/api/versions/${second.version_id}/processing`)).json<{
      status: string;
    }>();
    expect(processing.status).toBe('completed');
    // Nothing of the upload's own bookkeeping is left.
    expect(await t.deps.database.db.selectFrom('original_refs').selectAll().execute()).toEqual([]);
  });

  it('a failed upload keeps an original that only a pending bounce upload uses', async () => {
    c = await setupStoredAudio();
    const { t, owner } = c;
    const first = await uploadVersion(t, owner, wav);
    const branch = await owner.post(`/api/projects/${first.project_id}/branches`, { name: 'alt' });
    expect(branch.statusCode, branch.body).toBe(201);
    const branchId = branch.json<{ id: string }>().id;
    const repo = await buildRepo(t.deps.database.db, c.ownerId, { name: 'Night Drive' });
    // The only version using the original goes: nothing but uploads will refer to it.
    expect((await owner.delete(`/api/versions/${first.version_id}`)).statusCode).toBe(204);
    await runJobs(t);
    expect(await exists(t, first.key)).toBe(false);

    let publish: PublishResponse | undefined;
    const uploads = uploadsWith(t, async () => {
      // Meanwhile the same file is published as a bounce (pending), and the upload's branch
      // is deleted, so the upload fails after storing the original.
      publish = await publishUpload(t, owner, repo.id, wav);
      expect((await owner.delete(`/api/branches/${branchId}`)).statusCode).toBe(204);
    });
    const file = await uploads.receive(fs.createReadStream(wav), 'Shared Take.wav');
    await expect(
      uploads.createVersion(first.ownerId, file, {
        project_id: first.project_id,
        branch_id: branchId,
        commit_message: 'On a branch that goes away',
      }),
    ).rejects.toMatchObject({ code: 'not_found' }); // NotFound: answered as 404
    await uploads.discard(file);
    expect(await exists(t, first.key)).toBe(true);

    const completed = await completeUpload(owner, repo.id, (publish as PublishResponse).upload_id);
    expect(completed.statusCode, completed.body).toBe(201);
    const bounce = completed.json<{ bounce: Bounce }>().bounce;
    const stream = await owner.get(
      `/api/repos/${repo.id}/bounces/${bounce.id}/stream?quality=original`,
    );
    expect(stream.statusCode, stream.body).toBe(200);
    expect(stream.rawPayload.length).toBe(fs.statSync(wav).size);
  });

  it("an original used by a bounce or a pending bounce upload survives a version's deletion", async () => {
    c = await setupStoredAudio();
    const { t, owner } = c;
    const repo = await buildRepo(t.deps.database.db, c.ownerId, { name: 'Night Drive' });

    // Used by a pending (uploaded, not completed) bounce upload.
    const version = await uploadVersion(t, owner, wav);
    const pending = await publishUpload(t, owner, repo.id, wav);
    expect((await owner.delete(`/api/versions/${version.version_id}`)).statusCode).toBe(204);
    await runJobs(t);
    expect(await exists(t, version.key)).toBe(true);

    // Used by a bounce.
    const completed = await completeUpload(owner, repo.id, pending.upload_id);
    expect(completed.statusCode, completed.body).toBe(201);
    const again = await uploadVersion(t, owner, wav);
    expect(again.key).toBe(version.key);
    expect((await owner.delete(`/api/projects/${again.project_id}`)).statusCode).toBe(204);
    await runJobs(t);
    expect(await exists(t, version.key)).toBe(true);
    const bounce = completed.json<{ bounce: Bounce }>().bounce;
    const stream = await owner.get(
      `/api/repos/${repo.id}/bounces/${bounce.id}/stream?quality=original`,
    );
    expect(stream.statusCode).toBe(200);

    // Once the bounce goes too, nothing uses it and it goes.
    expect((await owner.delete(`/api/repos/${repo.id}/bounces/${bounce.id}`)).statusCode).toBe(204);
    await runJobs(t);
    expect(await exists(t, version.key)).toBe(false);
  });

  it('the clean-up waits for a writer holding the key, in another process, and then keeps the original', async () => {
    c = await setupStoredAudio();
    const { t } = c;
    const key = `originals/ab/${'ab'.repeat(32)}`;
    await t.deps.storage.put(key, Readable.from([Buffer.from('RIFF-test')]));
    const holder = spawn(process.execPath, ['--import', 'tsx', holderScript], {
      env: {
        ...process.env,
        HOLDER_SETUP: JSON.stringify({
          database: t.database.config,
          searchPath: t.database.searchPath,
          key,
          holdMs: 1500,
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('held')) resolve();
      });
      holder.once('exit', () => reject(new Error(`holder exited early: ${output}`)));
    });
    // The writer's reference is not committed yet; the clean-up must wait for it, not count 0.
    const deleted = await deleteOriginalIfUnused(t.deps.database.db, t.deps.storage, key);
    expect(await exited).toBe(0);
    expect(output).toContain('committed');
    expect(deleted).toBe(false);
    expect(await exists(t, key)).toBe(true);

    // With the reference gone, the same call removes it.
    await t.deps.database.db.deleteFrom('original_refs').execute();
    expect(await deleteOriginalIfUnused(t.deps.database.db, t.deps.storage, key)).toBe(true);
    expect(await exists(t, key)).toBe(false);
  });
});
