import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildProject,
  buildRepo,
  buildVersion,
  depsOf,
  publishBounce,
} from '../../../test/factories';
import { runJobs, setupStoredAudio } from '../../../test/stored-audio-setup';
import type { TestApp } from '../../../test/test-app';
import type { ObjectStore } from '../../storage/object-store';
import { drainCleanup } from './stored-audio';

let dir: string;
let wav: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-stored-'));
  wav = await makeAudio(dir, 'wav', 2, 'Shared Take.wav');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('stored originals and clean-up: big deletions', () => {
  let c: Awaited<ReturnType<typeof setupStoredAudio>>;
  let t: TestApp;
  afterEach(async () => {
    await c.t.close();
  });

  const COUNT = 1200;

  /** Writes a tiny object straight into the local store's folder (cheap, no fsync). */
  function writeObject(key: string): void {
    const file = (t.deps.storage as ObjectStore & { localPath(k: string): string }).localPath(key);
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
    c = await setupStoredAudio();
    t = c.t;
    const { owner } = c;
    const { project, branch } = await buildProject(t.deps.database.db, c.ownerId, {
      name: 'Big Album',
    });
    const branchId = branch.id;
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
        review_status: 'in_review' as const,
        ...processedColumns(id, originalOf(i)),
      };
    });
    await insertChunked(rows, (chunk) =>
      t.deps.database.db.insertInto('versions').values(chunk).execute(),
    );
    // One of the originals is also a version of another project: it must stay.
    const shared = rows[7]?.original_key as string;
    const elsewhere = await buildProject(t.deps.database.db, c.ownerId);
    const other = await buildVersion(
      depsOf(t),
      { projectId: elsewhere.project.id, branchId: elsewhere.branch.id },
      { file: wav },
    );
    await t.deps.database.db
      .updateTable('versions')
      .set({ original_key: shared })
      .where('id', '=', other.id)
      .execute();
    const before = await t.deps.storage.list('');
    expect(before.length).toBeGreaterThanOrEqual(COUNT * 4);

    const response = await owner.delete(`/api/projects/${project.id}`);
    expect(response.statusCode, response.body).toBe(204);
    await runJobs(t);

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
    c = await setupStoredAudio();
    t = c.t;
    const { owner } = c;
    const repo = await buildRepo(t.deps.database.db, c.ownerId, { name: 'Night Drive' });
    const first = await publishBounce(depsOf(t), repo.id, wav);
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
    const elsewhere = await buildProject(t.deps.database.db, c.ownerId);
    const version = await buildVersion(
      depsOf(t),
      { projectId: elsewhere.project.id, branchId: elsewhere.branch.id },
      { file: wav },
    );
    expect(version.original_key).toBe(first.original_key);

    const response = await owner.delete(`/api/repos/${repo.id}`);
    expect(response.statusCode, response.body).toBe(204);
    await runJobs(t);

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
    c = await setupStoredAudio();
    t = c.t;
    const { owner } = c;
    const { project, branch } = await buildProject(t.deps.database.db, c.ownerId, {
      name: 'Half Way',
    });
    const now = new Date().toISOString();
    const rows = Array.from({ length: 300 }, (_, i) => {
      const id = randomUUID();
      return {
        id,
        project_id: project.id,
        branch_id: branch.id,
        version_number: i + 1,
        message: null,
        tags: '[]',
        original_name: 'take.wav',
        original_size: 10,
        file_url: null,
        created_at: now,
        updated_at: now,
        review_status: 'in_review' as const,
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
