import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bounce, Project, PublishResponse, Repository } from '@takes/contract';
import { api, newUser } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { EmbeddedJobQueue } from '../../jobs/embedded';
import type { ObjectStore } from '../../storage/object-store';
import { ProjectsRepo } from '../projects/projects.repo';
import { ProjectsService } from '../projects/projects.service';
import { UploadService } from '../versions/upload.service';
import { VersionsRepo } from '../versions/versions.repo';
import { deleteOriginalIfUnused, drainCleanup } from './stored-audio';

const here = path.dirname(fileURLToPath(import.meta.url));
const holderScript = path.resolve(here, '../../../test/fixtures/original-ref-holder.ts');

let dir: string;
let wav: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-stored-'));
  wav = await makeAudio(dir, 'wav', 2, 'Shared Take.wav');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Client = ReturnType<typeof api>;

describe('stored originals and clean-up', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  async function setup() {
    t = await createTestApp();
    return api(t, await newUser(t));
  }

  /** Runs every due job (processing, clean-up) to the end, in this process. */
  async function runJobs(): Promise<void> {
    const queue = t.deps.jobs as EmbeddedJobQueue;
    while (await queue.runOnce()) {
      /* next */
    }
  }

  async function exists(key: string): Promise<boolean> {
    return (await t.deps.storage.head(key)) !== null;
  }

  async function uploadVersion(owner: Client, fields: Record<string, string> = {}) {
    const response = await owner.upload({ path: wav }, fields);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ versionId: string; projectId: string; branchId: string }>();
    const row = await t.deps.database.db
      .selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .select(['versions.original_key', 'projects.owner_id'])
      .where('versions.id', '=', body.versionId)
      .executeTakeFirstOrThrow();
    return { ...body, key: row.original_key as string, ownerId: row.owner_id };
  }

  /** An UploadService on the app's own adapters, with a hook at the dangerous moment. */
  function uploadsWith(afterOriginalStored: (key: string) => Promise<void>): UploadService {
    const { db } = t.deps.database;
    return new UploadService({
      db,
      repo: new VersionsRepo(db),
      storage: t.deps.storage,
      jobs: t.deps.jobs,
      media: t.deps.media,
      clock: t.deps.clock,
      tmpDir: t.deps.tmpDir,
      mediaTimeoutMs: t.deps.config.media.timeoutMs,
      projects: new ProjectsService({
        repo: new ProjectsRepo(db),
        clock: t.deps.clock,
        jobs: t.deps.jobs,
      }),
      afterOriginalStored,
    });
  }

  async function publishUpload(owner: Client, repoId: string): Promise<PublishResponse> {
    const started = await owner.post('/api/bounces/publish', {
      repoId,
      branch: 'main',
      filename: 'Shared Take.wav',
      contentType: 'audio/wav',
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    const put = await t.app.inject({
      method: 'PUT',
      url: new URL(publish.uploadUrl).pathname,
      payload: fs.readFileSync(wav),
      headers: {
        'content-type': 'application/octet-stream',
        'x-upsert-token': publish.uploadToken,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    return publish;
  }

  async function completeUpload(owner: Client, repoId: string, uploadId: string) {
    return owner.post('/api/bounces/complete', {
      repoId,
      branch: 'main',
      filename: 'Shared Take.wav',
      mime: 'audio/wav',
      uploadId,
    });
  }

  async function createRepo(owner: Client, name = 'Night Drive'): Promise<Repository> {
    const response = await owner.post('/api/repos', { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ repo: Repository }>().repo;
  }

  it('keeps the original of a re-upload when the clean-up of its deleted twin runs between storing it and creating the version', async () => {
    const owner = await setup();
    const first = await uploadVersion(owner);
    await runJobs();
    expect((await owner.delete(`/api/versions/${first.versionId}`)).statusCode).toBe(204);

    let ranCleanup = false;
    const uploads = uploadsWith(async () => {
      // The clean-up job of the deleted version runs exactly now.
      await runJobs();
      ranCleanup = true;
    });
    const file = await uploads.receive(fs.createReadStream(wav), 'Shared Take.wav');
    const second = await uploads.createVersion(first.ownerId, file, {
      projectId: first.projectId,
      branchId: first.branchId,
      commitMessage: 'Same take again',
    });
    await uploads.discard(file);
    expect(ranCleanup).toBe(true);
    expect(await exists(first.key)).toBe(true);

    const stream = await owner.get(`/api/versions/${second.versionId}/stream?quality=original`);
    expect(stream.statusCode, stream.body).toBe(200);
    expect(stream.rawPayload.length).toBe(fs.statSync(wav).size);
    await runJobs();
    const processing = (await owner.get(`/api/versions/${second.versionId}/processing`)).json<{
      status: string;
    }>();
    expect(processing.status).toBe('completed');
    // Nothing of the upload's own bookkeeping is left.
    expect(await t.deps.database.db.selectFrom('original_refs').selectAll().execute()).toEqual([]);
  });

  it('a failed upload keeps an original that only a pending bounce upload uses', async () => {
    const owner = await setup();
    const first = await uploadVersion(owner);
    const branch = await owner.post(`/api/projects/${first.projectId}/branches`, { name: 'alt' });
    expect(branch.statusCode, branch.body).toBe(201);
    const branchId = branch.json<{ id: string }>().id;
    const repo = await createRepo(owner);
    // The only version using the original goes: nothing but uploads will refer to it.
    expect((await owner.delete(`/api/versions/${first.versionId}`)).statusCode).toBe(204);
    await runJobs();
    expect(await exists(first.key)).toBe(false);

    let publish: PublishResponse | undefined;
    const uploads = uploadsWith(async () => {
      // Meanwhile the same file is published as a bounce (pending), and the upload's branch
      // is deleted, so the upload fails after storing the original.
      publish = await publishUpload(owner, repo.id);
      expect((await owner.delete(`/api/branches/${branchId}`)).statusCode).toBe(204);
    });
    const file = await uploads.receive(fs.createReadStream(wav), 'Shared Take.wav');
    await expect(
      uploads.createVersion(first.ownerId, file, {
        projectId: first.projectId,
        branchId,
        commitMessage: 'On a branch that goes away',
      }),
    ).rejects.toMatchObject({ code: 'not_found' }); // NotFound: answered as 404
    await uploads.discard(file);
    expect(await exists(first.key)).toBe(true);

    const completed = await completeUpload(owner, repo.id, (publish as PublishResponse).uploadId);
    expect(completed.statusCode, completed.body).toBe(201);
    const bounce = completed.json<{ bounce: Bounce }>().bounce;
    const stream = await owner.get(
      `/api/repos/${repo.id}/bounces/${bounce.id}/stream?quality=original`,
    );
    expect(stream.statusCode, stream.body).toBe(200);
    expect(stream.rawPayload.length).toBe(fs.statSync(wav).size);
  });

  it("an original used by a bounce or a pending bounce upload survives a version's deletion", async () => {
    const owner = await setup();
    const repo = await createRepo(owner);

    // Used by a pending (uploaded, not completed) bounce upload.
    const version = await uploadVersion(owner);
    const pending = await publishUpload(owner, repo.id);
    expect((await owner.delete(`/api/versions/${version.versionId}`)).statusCode).toBe(204);
    await runJobs();
    expect(await exists(version.key)).toBe(true);

    // Used by a bounce.
    const completed = await completeUpload(owner, repo.id, pending.uploadId);
    expect(completed.statusCode, completed.body).toBe(201);
    const again = await uploadVersion(owner);
    expect(again.key).toBe(version.key);
    expect((await owner.delete(`/api/projects/${again.projectId}`)).statusCode).toBe(204);
    await runJobs();
    expect(await exists(version.key)).toBe(true);
    const bounce = completed.json<{ bounce: Bounce }>().bounce;
    const stream = await owner.get(
      `/api/repos/${repo.id}/bounces/${bounce.id}/stream?quality=original`,
    );
    expect(stream.statusCode).toBe(200);

    // Once the bounce goes too, nothing uses it and it goes.
    expect((await owner.delete(`/api/repos/${repo.id}/bounces/${bounce.id}`)).statusCode).toBe(204);
    await runJobs();
    expect(await exists(version.key)).toBe(false);
  });

  it('the clean-up waits for a writer holding the key, in another process, and then keeps the original', async () => {
    await setup();
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
    expect(await exists(key)).toBe(true);

    // With the reference gone, the same call removes it.
    await t.deps.database.db.deleteFrom('original_refs').execute();
    expect(await deleteOriginalIfUnused(t.deps.database.db, t.deps.storage, key)).toBe(true);
    expect(await exists(key)).toBe(false);
  });

  describe('big deletions', () => {
    const COUNT = 1200;

    /** Writes a tiny object straight into the local store's folder (cheap, no fsync). */
    function writeObject(key: string): void {
      const file = (t.deps.storage as ObjectStore & { localPath(k: string): string }).localPath(
        key,
      );
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, key);
    }

    function processedColumns(id: string, original: string) {
      const keys = {
        high: `renditions/${id}/high.mp3`,
        standard: `renditions/${id}/standard.mp3`,
        peaks: `peaks/${id}.json`,
      };
      for (const key of [original, keys.high, keys.standard, keys.peaks]) writeObject(key);
      return {
        original_key: original,
        original_format: 'wav',
        status: 'completed' as const,
        error: null,
        metadata: '{}',
        waveform: JSON.stringify({
          overview: [],
          duration: 1,
          peaksKey: keys.peaks,
          peaksPerSecond: 10,
        }),
        loudness: null,
        renditions: JSON.stringify({
          high: { key: keys.high, size: 3 },
          standard: { key: keys.standard, size: 3 },
        }),
      };
    }

    function originalOf(i: number): string {
      const hash = randomUUID().replaceAll('-', '') + String(i).padStart(32, '0');
      return `originals/${hash.slice(0, 2)}/${hash}`;
    }

    async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
      for (let i = 0; i < rows.length; i += 100) await insert(rows.slice(i, i + 100));
    }

    it('deletes a project with 1,200 processed versions and every object but originals used elsewhere', async () => {
      const owner = await setup();
      const created = await owner.post('/api/projects', { name: 'Big Album', is_private: true });
      expect(created.statusCode, created.body).toBe(201);
      const project = created.json<Project>();
      const branchId = project.branches[0]?.id as string;
      const now = new Date().toISOString();
      const rows = Array.from({ length: COUNT }, (_, i) => {
        const id = randomUUID();
        return {
          id,
          project_id: project.id,
          branch_id: branchId,
          version_number: i + 1,
          message: `Take ${i + 1}`,
          tags: '[]',
          original_name: 'take.wav',
          original_size: 10,
          file_url: null,
          created_at: now,
          updated_at: now,
          ...processedColumns(id, originalOf(i)),
        };
      });
      await insertChunked(rows, (chunk) =>
        t.deps.database.db.insertInto('versions').values(chunk).execute(),
      );
      // One of the originals is also a version of another project: it must stay.
      const shared = rows[7]?.original_key as string;
      const other = await uploadVersion(owner);
      await t.deps.database.db
        .updateTable('versions')
        .set({ original_key: shared })
        .where('id', '=', other.versionId)
        .execute();
      const before = await t.deps.storage.list('');
      expect(before.length).toBeGreaterThanOrEqual(COUNT * 4);

      const response = await owner.delete(`/api/projects/${project.id}`);
      expect(response.statusCode, response.body).toBe(204);
      await runJobs();

      const left = new Set((await t.deps.storage.list('')).map((o) => o.key));
      for (const row of rows) {
        expect(left.has(`renditions/${row.id}/high.mp3`)).toBe(false);
        expect(left.has(`renditions/${row.id}/standard.mp3`)).toBe(false);
        expect(left.has(`peaks/${row.id}.json`)).toBe(false);
        expect(left.has(row.original_key)).toBe(row.original_key === shared);
      }
      expect(await t.deps.database.db.selectFrom('storage_cleanup').selectAll().execute()).toEqual(
        [],
      );
    }, 120_000);

    it('deletes a repository with 1,200 bounces and every object but originals used elsewhere', async () => {
      const owner = await setup();
      const repo = await createRepo(owner);
      const publish = await publishUpload(owner, repo.id);
      const completed = await completeUpload(owner, repo.id, publish.uploadId);
      expect(completed.statusCode, completed.body).toBe(201);
      const first = await t.deps.database.db
        .selectFrom('bounces')
        .selectAll()
        .where('id', '=', completed.json<{ bounce: Bounce }>().bounce.id)
        .executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const rows = Array.from({ length: COUNT }, (_, i) => {
        const id = randomUUID();
        const columns = processedColumns(id, originalOf(i));
        return {
          id,
          repo_id: repo.id,
          branch_id: first.branch_id,
          commit_id: first.commit_id,
          title: `Bounce ${i + 1}`,
          filename: 'bounce.wav',
          mime: 'audio/wav',
          original_size: 10,
          created_at: now,
          updated_at: now,
          ...columns,
          original_key: columns.original_key,
        };
      });
      await insertChunked(rows, (chunk) =>
        t.deps.database.db.insertInto('bounces').values(chunk).execute(),
      );
      // The first bounce's original is also a version's: it must stay.
      const version = await uploadVersion(owner);
      expect(version.key).toBe(first.original_key);

      const response = await owner.delete(`/api/repos/${repo.id}`);
      expect(response.statusCode, response.body).toBe(204);
      await runJobs();

      const left = new Set((await t.deps.storage.list('')).map((o) => o.key));
      for (const row of rows) {
        expect(left.has(`renditions/${row.id}/high.mp3`)).toBe(false);
        expect(left.has(`renditions/${row.id}/standard.mp3`)).toBe(false);
        expect(left.has(`peaks/${row.id}.json`)).toBe(false);
        expect(left.has(row.original_key)).toBe(false);
      }
      expect(left.has(first.original_key)).toBe(true);
      expect(left.has(`renditions/${first.id}/high.mp3`)).toBe(false);
    }, 120_000);

    it('a clean-up that dies half-way finishes when it runs again', async () => {
      const owner = await setup();
      const created = await owner.post('/api/projects', { name: 'Half Way', is_private: true });
      const project = created.json<Project>();
      const now = new Date().toISOString();
      const rows = Array.from({ length: 300 }, (_, i) => {
        const id = randomUUID();
        return {
          id,
          project_id: project.id,
          branch_id: project.branches[0]?.id as string,
          version_number: i + 1,
          message: null,
          tags: '[]',
          original_name: 'take.wav',
          original_size: 10,
          file_url: null,
          created_at: now,
          updated_at: now,
          ...processedColumns(id, originalOf(i)),
        };
      });
      await insertChunked(rows, (chunk) =>
        t.deps.database.db.insertInto('versions').values(chunk).execute(),
      );
      expect((await owner.delete(`/api/projects/${project.id}`)).statusCode).toBe(204);
      const batch = await t.deps.database.db
        .selectFrom('storage_cleanup')
        .select('batch_id')
        .executeTakeFirstOrThrow();

      // A store that fails after 250 deletions: the job dies part-way through.
      let deletions = 0;
      const failing: ObjectStore = Object.create(t.deps.storage) as ObjectStore;
      failing.delete = async (key: string) => {
        if (++deletions > 250) throw new Error('storage went away');
        await t.deps.storage.delete(key);
      };
      await expect(
        drainCleanup({ db: t.deps.database.db, storage: failing }, batch.batch_id),
      ).rejects.toThrow('storage went away');
      expect((await t.deps.storage.list('')).length).toBeGreaterThan(0);

      await drainCleanup({ db: t.deps.database.db, storage: t.deps.storage }, batch.batch_id);
      expect(await t.deps.storage.list('')).toEqual([]);
      expect(await t.deps.database.db.selectFrom('storage_cleanup').selectAll().execute()).toEqual(
        [],
      );
    });
  });
});
