import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_EXPORT_MESSAGES, type DataExport } from '@takes/contract';
import { api, eventually } from '../../../test/api';
import {
  addMember,
  buildCommit,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
  publishBounce,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { readZip } from '../../../test/zip-reader';
import type { DataExportsTable } from '../../db/schema';
import type { ObjectStore } from '../../storage/object-store';
import type { ExportManifest } from './export-manifest';
import { ExportsRepo } from './exports.repo';
import { ExportsService } from './exports.service';
import { expireExportsJob } from './jobs';

/** 'Export my data': what the zip holds, whose data, safe names, progress, faults, expiry. */
describe('data exports', () => {
  let t: TestApp;
  let clock: TestClock;
  let owner: BuiltUser;
  let other: BuiltUser;
  const originals: Record<string, Buffer> = {};

  const db = () => t.deps.database.db;

  /** An "audio" file of random bytes: the export copies originals byte for byte. */
  function audioFile(name: string, bytes: number): string {
    const folder = path.join(t.dir, randomUUID());
    fs.mkdirSync(folder);
    const file = path.join(folder, name);
    const content = randomBytes(bytes);
    fs.writeFileSync(file, content);
    originals[name] = content;
    return file;
  }

  /** An export row written directly (as a request would leave it), queued unless overridden. */
  async function insertExport(userId: string, overrides: Partial<DataExportsTable> = {}) {
    const at = clock.now().toISOString();
    const row: DataExportsTable = {
      id: randomUUID(),
      user_id: userId,
      state: 'queued',
      progress: 0,
      size: null,
      object_key: null,
      error: null,
      created_at: at,
      updated_at: at,
      ready_at: null,
      expires_at: null,
      ...overrides,
    };
    await db().insertInto('data_exports').values(row).execute();
    return row;
  }

  async function exportReady(user: BuiltUser): Promise<DataExport> {
    const started = await api(t, user.cookie).post('/api/exports');
    expect(started.statusCode, started.body).toBe(202);
    let latest: DataExport | null = null;
    await eventually(async () => {
      const res = await api(t, user.cookie).get('/api/exports/latest');
      latest = res.json<{ export: DataExport | null }>().export;
      return latest?.state === 'ready' || latest?.state === 'failed';
    }, 20_000);
    return latest as unknown as DataExport;
  }

  beforeAll(async () => {
    clock = new TestClock();
    t = await createTestApp({ clock });
    await t.deps.jobs.startWorking();
    owner = await buildUser(db(), { name: 'Owner Person' });
    other = await buildUser(db(), { name: 'Other Person' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('zips every owned project, version original, comment, link, repository, commit and bounce, and only those', async () => {
    const deps = depsOf(t);
    const { project, branch } = await buildProject(db(), owner.id, { name: 'Night Drive' });
    const side = {
      id: randomUUID(),
      project_id: project.id,
      name: 'alt mix',
      is_default: 0,
      created_at: project.created_at,
      updated_at: project.created_at,
    };
    await db().insertInto('branches').values(side).execute();
    const v1 = await buildVersion(
      deps,
      { projectId: project.id, branchId: branch.id },
      { file: audioFile('take one.wav', 40_000), overrides: { message: 'first' } },
    );
    const v2 = await buildVersion(
      deps,
      { projectId: project.id, branchId: branch.id },
      { file: audioFile('take two.flac', 50_000) },
    );
    const alt = await buildVersion(
      deps,
      { projectId: project.id, branchId: side.id },
      { file: audioFile('alt.wav', 30_000) },
    );
    const member = await buildUser(db(), { name: 'Band Mate' });
    await addMember(db(), { projectId: project.id }, member.id, 'commenter');
    const now = new Date().toISOString();
    const linkId = randomUUID();
    await db()
      .insertInto('links')
      .values({
        id: linkId,
        hash: 'secret-share-key-0123456789',
        version_id: v1.id,
        project_id: project.id,
        owner_id: owner.id,
        name: 'For the label',
        download_enabled: 1,
        expires_at: null,
        revoked_at: null,
        created_at: now,
        listeners_see_each_other: 1,
        allow_approval: 0,
        play_count: 3,
        last_played_at: now,
      })
      .execute();
    const comment = (
      id: string,
      fields: {
        user_id: string | null;
        visitor_name: string | null;
        link_id: string | null;
        parent_id: string | null;
        content: string;
        created_at?: string;
        end_timestamp_seconds?: number;
      },
    ) =>
      db()
        .insertInto('comments')
        .values({
          id,
          version_id: v1.id,
          timestamp_seconds: 12.5,
          resolved_at: null,
          created_at: now,
          team_only: 0,
          ...fields,
        })
        .execute();
    const c1 = randomUUID();
    await comment(c1, {
      user_id: member.id,
      visitor_name: null,
      link_id: null,
      parent_id: null,
      content: 'Kick is loud',
      end_timestamp_seconds: 20,
    });
    // The label asked for changes through the link: the review history travels too.
    await db()
      .insertInto('version_reviews')
      .values({
        id: randomUUID(),
        version_id: v1.id,
        status: 'changes_requested',
        user_id: null,
        visitor_name: 'A&R',
        link_id: linkId,
        created_at: now,
      })
      .execute();
    await db()
      .updateTable('versions')
      .set({ review_status: 'changes_requested' })
      .where('id', '=', v1.id)
      .execute();
    await comment(randomUUID(), {
      user_id: null,
      visitor_name: 'A&R',
      link_id: linkId,
      parent_id: c1,
      content: 'Agreed',
      created_at: new Date(Date.parse(now) + 1000).toISOString(),
    });

    const repo = await buildRepo(db(), owner.id, { name: 'Album sessions' });
    const bounce = await publishBounce(deps, repo.id, audioFile('Rough Mix.wav', 20_000));
    await buildCommit(db(), repo.id, { message: 'Second pass' });

    // Not the owner's: a project they are only a member of, and another person's own data.
    const { project: shared, branch: sharedBranch } = await buildProject(db(), other.id, {
      name: 'Someone else',
    });
    await addMember(db(), { projectId: shared.id }, owner.id, 'editor');
    await buildVersion(
      deps,
      { projectId: shared.id, branchId: sharedBranch.id },
      { file: audioFile('not mine.wav', 10_000) },
    );
    await buildRepo(db(), other.id, { name: 'Their repo' });

    // A collection of the owner's (a pinned version, then a followed branch of a project they are
    // a member of), and another person's collection, which stays out.
    const mine = await api(t, owner.cookie).post('/api/collections', { name: 'EP pitch' });
    expect(mine.statusCode, mine.body).toBe(201);
    const collectionId = mine.json<{ id: string }>().id;
    const itemIds: string[] = [];
    for (const item of [{ version_id: v2.id }, { branch_id: sharedBranch.id }]) {
      const added = await api(t, owner.cookie).post(`/api/collections/${collectionId}/items`, item);
      expect(added.statusCode, added.body).toBe(201);
      itemIds.push(added.json<{ id: string }>().id);
    }
    // A protected per-recipient link with one counted play (its key and password stay out).
    const sharing = await api(t, owner.cookie).post(`/api/collections/${collectionId}/links`, {
      name: 'Label',
      password: 'correct horse',
      recipients: [{ name: 'Ana', email: 'ana@example.com' }],
    });
    expect(sharing.statusCode, sharing.body).toBe(201);
    const link = sharing.json<{ links: { id: string; key: string }[] }>().links[0]!;
    await t.deps.database.db
      .insertInto('collection_link_receipts')
      .values({
        link_id: link.id,
        item_id: itemIds[0]!,
        plays_started: 2,
        plays_30s: 1,
        plays_90: 1,
        downloads: 0,
        last_activity_at: '2026-11-20T10:00:00.000Z',
      })
      .execute();
    expect(
      (await api(t, other.cookie).post('/api/collections', { name: 'Not theirs to export' }))
        .statusCode,
    ).toBe(201);

    const ready = await exportReady(owner);
    expect(ready).toMatchObject({ state: 'ready', progress: 100, error: null });
    expect(Date.parse(ready.expires_at!) - Date.parse(ready.ready_at!)).toBe(24 * 60 * 60 * 1000);

    const res = await api(t, owner.cookie).get(`/api/exports/${ready.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="takes-export-${ready.ready_at!.slice(0, 10)}.zip"; filename*=UTF-8''takes-export-${ready.ready_at!.slice(0, 10)}.zip`,
    );
    expect(res.rawPayload.length).toBe(ready.size);
    const zip = await readZip(res.rawPayload);

    expect([...zip.keys()].sort()).toEqual([
      'manifest.json',
      'projects/Night Drive/alt mix/v1 - alt.wav',
      'projects/Night Drive/main/v1 - take one.wav',
      'projects/Night Drive/main/v2 - take two.flac',
      'repositories/Album sessions/main/Rough Mix.wav',
    ]);
    expect(zip.get('projects/Night Drive/main/v1 - take one.wav')).toEqual(
      originals['take one.wav'],
    );
    expect(zip.get('projects/Night Drive/main/v2 - take two.flac')).toEqual(
      originals['take two.flac'],
    );
    expect(zip.get('projects/Night Drive/alt mix/v1 - alt.wav')).toEqual(originals['alt.wav']);
    expect(zip.get('repositories/Album sessions/main/Rough Mix.wav')).toEqual(
      originals['Rough Mix.wav'],
    );

    const manifest = JSON.parse(zip.get('manifest.json')!.toString('utf8')) as ExportManifest;
    expect(manifest).toMatchObject({
      format: 'takes-export',
      exportId: ready.id,
      user: { id: owner.id, name: 'Owner Person', email: owner.email },
    });
    expect(manifest.projects.map((project) => project.id)).toEqual([project.id]);
    const p = manifest.projects[0]!;
    expect(p.branches.map((b) => b.name).sort()).toEqual(['alt mix', 'main']);
    const main = p.branches.find((b) => b.name === 'main')!;
    expect(main.versions).toEqual([
      expect.objectContaining({
        id: v1.id,
        number: 1,
        message: 'first',
        reviewStatus: 'changes_requested',
        originalName: 'take one.wav',
        size: 40_000,
        file: 'projects/Night Drive/main/v1 - take one.wav',
      }),
      expect.objectContaining({
        id: v2.id,
        number: 2,
        file: 'projects/Night Drive/main/v2 - take two.flac',
      }),
    ]);
    expect(p.branches.find((b) => b.name === 'alt mix')!.versions[0]).toMatchObject({ id: alt.id });
    expect(p.comments).toEqual([
      expect.objectContaining({
        id: c1,
        versionId: v1.id,
        author: 'Band Mate',
        content: 'Kick is loud',
        timestampSeconds: 12.5,
        endTimestampSeconds: 20,
        parentId: null,
      }),
      expect.objectContaining({
        author: 'A&R',
        parentId: c1,
        viaShareLinkId: linkId,
        content: 'Agreed',
      }),
    ]);
    expect(p.reviews).toEqual([
      {
        versionId: v1.id,
        status: 'changes_requested',
        by: 'A&R',
        userId: null,
        viaShareLinkId: linkId,
        createdAt: now,
      },
    ]);
    expect(p.shareLinks).toEqual([
      expect.objectContaining({
        id: linkId,
        name: 'For the label',
        versionId: v1.id,
        playCount: 3,
        downloadEnabled: true,
      }),
    ]);
    // The share key opens the music to whoever holds it: never written into a zip that travels.
    expect(zip.get('manifest.json')!.toString('utf8')).not.toContain('secret-share-key');
    expect(manifest.repositories.map((repository) => repository.id)).toEqual([repo.id]);
    const r = manifest.repositories[0]!;
    expect(r.commits.map((c) => c.message)).toEqual(['Publish Rough Mix', 'Second pass']);
    expect(r.bounces).toEqual([
      expect.objectContaining({
        id: bounce.id,
        title: 'Rough Mix',
        commitSha: bounce.commit_sha,
        file: 'repositories/Album sessions/main/Rough Mix.wav',
      }),
    ]);
    expect(manifest.collections).toEqual([
      expect.objectContaining({
        id: collectionId,
        name: 'EP pitch',
        description: null,
        items: [
          expect.objectContaining({ id: itemIds[0], kind: 'version', versionId: v2.id }),
          expect.objectContaining({ id: itemIds[1], kind: 'latest', branchId: sharedBranch.id }),
        ],
        shareLinks: [
          expect.objectContaining({
            id: link.id,
            name: 'Label',
            recipient: { name: 'Ana', email: 'ana@example.com' },
            hasPassword: true,
            revokedAt: null,
            receipts: [
              {
                itemId: itemIds[0],
                playsStarted: 2,
                plays30s: 1,
                plays90: 1,
                downloads: 0,
                lastActivityAt: '2026-11-20T10:00:00.000Z',
              },
            ],
          }),
        ],
      }),
    ]);
    const raw = JSON.stringify(manifest);
    expect(raw).not.toContain(link.key);
    expect(raw).not.toContain('correct horse');
    expect(raw).not.toMatch(/password_hash|scrypt/);
    // Every listed file is in the zip with its size.
    for (const f of manifest.files) expect(zip.get(f.path)?.length).toBe(f.size);
  });

  it('makes names from titles safe and unique inside the zip', async () => {
    const user = await buildUser(db());
    const deps = depsOf(t);
    for (const name of ['../../etc/passwd', 'a/b:c*?"<>|', 'Dup', 'dup', '...', 'CON']) {
      const { project, branch } = await buildProject(db(), user.id, { name });
      await buildVersion(
        deps,
        { projectId: project.id, branchId: branch.id },
        { file: audioFile('..\\..\\evil.wav', 1_000) },
      );
    }
    const ready = await exportReady(user);
    const res = await api(t, user.cookie).get(`/api/exports/${ready.id}/download`);
    // yauzl itself refuses absolute paths and `..` segments: reading the zip proves none are there.
    const names = [...(await readZip(res.rawPayload)).keys()];
    for (const name of names) {
      expect(
        name.split('/').every((segment) => segment !== '..' && segment !== '.' && segment !== ''),
      ).toBe(true);
      expect(name).not.toMatch(/[\\:*?"<>|]/);
    }
    const folders = names.filter((n) => n.startsWith('projects/')).map((n) => n.split('/')[1]);
    expect(folders.sort()).toEqual(
      ['Dup', 'Project', '_CON', '_.._etc_passwd', 'a_b_c______', 'dup (2)'].sort(),
    );
    expect(names).toContain('projects/Dup/main/v1 - evil.wav');
  });

  it('allows one export in flight per person (409), and only its owner may download it', async () => {
    const user = await buildUser(db());
    const inFlight = await insertExport(user.id, { state: 'running', progress: 40 });
    const refused = await api(t, user.cookie).post('/api/exports');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: DATA_EXPORT_MESSAGES.alreadyRunning });
    expect((await api(t, user.cookie).get('/api/exports/latest')).json()).toMatchObject({
      export: { id: inFlight.id, state: 'running', progress: 40 },
    });

    const mine = await exportReady(owner);
    expect((await api(t, other.cookie).get(`/api/exports/${mine.id}/download`)).statusCode).toBe(
      404,
    );
    expect((await api(t, '').get(`/api/exports/${mine.id}/download`)).statusCode).toBe(401);
    expect((await api(t, '').get('/api/exports/latest')).statusCode).toBe(401);
    expect((await api(t, other.cookie).get('/api/exports/latest')).json()).toEqual({
      export: null,
    });
  });

  it('writes progress as it copies, starts over on a retry, and keeps nothing of a failed attempt', async () => {
    const user = await buildUser(db());
    const { project, branch } = await buildProject(db(), user.id);
    for (let i = 0; i < 4; i++)
      await buildVersion(
        depsOf(t),
        { projectId: project.id, branchId: branch.id },
        { file: audioFile(`part ${i}.wav`, 300_000) },
      );
    const progress: number[] = [];
    class RecordingRepo extends ExportsRepo {
      override async update(id: string, patch: Parameters<ExportsRepo['update']>[1]) {
        if (typeof patch.progress === 'number') progress.push(patch.progress);
        await super.update(id, patch);
      }
    }
    const service = (tmpDir: string, storage: ObjectStore = t.deps.storage) =>
      new ExportsService({
        repo: new RecordingRepo(db()),
        storage,
        jobs: t.deps.jobs,
        clock,
        tmpDir,
      });
    const { id } = await insertExport(user.id);
    const context = (attempt: number, lastAttempt: boolean) => ({
      attempt,
      lastAttempt,
      signal: new AbortController().signal,
      logger: { info() {}, warn() {}, error() {} },
    });
    const row = () =>
      db().selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    // A scratch folder that is not there: the attempt fails, the job will retry, nothing is stored.
    const missing = path.join(t.dir, 'no-such-folder');
    await expect(service(missing).build(id, context(1, false))).rejects.toThrow();
    expect(await row()).toMatchObject({ state: 'running', object_key: null });
    expect(await t.deps.storage.head(`exports/${id}.zip`)).toBeNull();

    progress.length = 0;
    await service(t.deps.tmpDir).build(id, context(2, false));
    expect(await row()).toMatchObject({
      state: 'ready',
      progress: 100,
      object_key: `exports/${id}.zip`,
    });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress.length).toBeGreaterThan(5);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(fs.readdirSync(t.deps.tmpDir).filter((f) => f.startsWith('export-'))).toEqual([]);
    // Run again (a retried job after success): nothing changes.
    const before = await row();
    await service(t.deps.tmpDir).build(id, context(3, false));
    expect(await row()).toEqual(before);

    // The last attempt failing half-way through an original (a read fault of the store): the row
    // says so in the person's words; no object, no scratch file.
    const store = t.deps.storage;
    const breaking = new Proxy(store, {
      get(target, property) {
        if (property !== 'get') {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value.bind(target) as unknown) : value;
        }
        return async (key: string) => {
          const object = await store.get(key);
          object.body.destroy();
          const body = new Readable({ read() {} });
          body.push(Buffer.alloc(100));
          setImmediate(() => body.destroy(new Error('read failed half-way')));
          return { ...object, body };
        };
      },
    });
    const { id: failing } = await insertExport(other.id);
    await service(t.deps.tmpDir, breaking).build(failing, context(3, true));
    expect(fs.readdirSync(t.deps.tmpDir).filter((f) => f.startsWith('export-'))).toEqual([]);
    expect(
      await db()
        .selectFrom('data_exports')
        .selectAll()
        .where('id', '=', failing)
        .executeTakeFirstOrThrow(),
    ).toMatchObject({ state: 'failed', error: DATA_EXPORT_MESSAGES.failed, object_key: null });
    expect(await t.deps.storage.head(`exports/${failing}.zip`)).toBeNull();
    const failed = (await api(t, other.cookie).get('/api/exports/latest')).json<{
      export: DataExport;
    }>();
    expect(failed.export).toMatchObject({
      id: failing,
      state: 'failed',
      error: DATA_EXPORT_MESSAGES.failed,
    });
  });

  it('is downloadable for 24 hours; then 410 and the clean-up job deletes the zip', async () => {
    const user = await buildUser(db());
    const ready = await exportReady(user);
    const key = `exports/${ready.id}.zip`;
    expect(await t.deps.storage.head(key)).not.toBeNull();

    clock.advance(23 * 60 * 60 * 1000);
    expect((await api(t, user.cookie).get(`/api/exports/${ready.id}/download`)).statusCode).toBe(
      200,
    );
    clock.advance(61 * 60 * 1000);
    const gone = await api(t, user.cookie).get(`/api/exports/${ready.id}/download`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ error: DATA_EXPORT_MESSAGES.expired });
    expect((await api(t, user.cookie).get('/api/exports/latest')).json()).toMatchObject({
      export: { id: ready.id, state: 'expired' },
    });

    await t.deps.jobs.enqueue(expireExportsJob, {});
    await eventually(async () => (await t.deps.storage.head(key)) === null, 10_000);
    await eventually(async () => {
      const row = await db()
        .selectFrom('data_exports')
        .select(['state', 'object_key'])
        .where('id', '=', ready.id)
        .executeTakeFirstOrThrow();
      return row.state === 'expired' && row.object_key === null;
    }, 10_000);
    // A new export can be made after.
    expect((await api(t, user.cookie).post('/api/exports')).statusCode).toBe(202);
  });
});
