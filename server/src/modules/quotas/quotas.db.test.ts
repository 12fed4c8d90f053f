import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from '../../../test/api';
import { sweepStorageHoldsJob } from './jobs';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
  publishBounce,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { AppError } from '../../errors';

const GB = 1024 ** 3;
let dir: string;
let wav: string;
let otherWav: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-quota-'));
  wav = await makeAudio(dir, 'wav', 1, 'Take.wav');
  otherWav = await makeAudio(dir, 'wav', 2, 'Other.wav');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('storage quotas: usage, the quota that applies, holds', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('counts originals and renditions, a shared original once per person who holds it', async () => {
    t = await createTestApp();
    const deps = depsOf(t);
    const db = t.deps.database.db;
    const me = await buildUser(db);
    const other = await buildUser(db);
    const size = fs.statSync(wav).size;
    const otherSize = fs.statSync(otherWav).size;
    expect(await t.services.quotas.usage(me.id)).toEqual({ used_bytes: 0, quota_bytes: null });

    // The same original in two of my projects, processed (renditions high + standard: each the
    // original's bytes in the factory), and once more unprocessed.
    const a = await buildProject(db, me.id);
    const b = await buildProject(db, me.id);
    await buildVersion(
      deps,
      { projectId: a.project.id, branchId: a.branch.id },
      { file: wav, processed: true },
    );
    await buildVersion(
      deps,
      { projectId: b.project.id, branchId: b.branch.id },
      { file: wav, processed: true },
    );
    await buildVersion(deps, { projectId: b.project.id, branchId: b.branch.id }, { file: wav });
    // A FLAC 'lossless' rendition on one more version of another original.
    await buildVersion(
      deps,
      { projectId: a.project.id, branchId: a.branch.id },
      {
        file: otherWav,
        overrides: {
          renditions: JSON.stringify({
            lossless: { key: 'renditions/x/lossless.flac', size: 1000, sha256: 'x' },
          }),
        },
      },
    );
    // A bounce of mine with the same original as the versions: counted once, with its renditions.
    const repo = await buildRepo(db, me.id);
    await publishBounce(deps, repo.id, wav);
    const expected = size + 2 * size * 2 + otherSize + 1000 + 2 * size;
    expect((await t.services.quotas.usage(me.id)).used_bytes).toBe(expected);

    // Someone else's project with the same original counts for them, not for me.
    const theirs = await buildProject(db, other.id);
    await buildVersion(
      deps,
      { projectId: theirs.project.id, branchId: theirs.branch.id },
      { file: wav },
    );
    expect((await t.services.quotas.usage(other.id)).used_bytes).toBe(size);
    expect((await t.services.quotas.usage(me.id)).used_bytes).toBe(expected);

    const everyone = await t.services.quotas.usedBytesByUser();
    expect(everyone.get(me.id)).toBe(expected);
    expect(everyone.get(other.id)).toBe(size);

    const totals = await t.services.quotas.totals();
    // In all, each original once: the wav and the other wav.
    expect(totals.by_kind.originals).toBe(size + otherSize);
    expect(totals.by_kind.renditions).toBe(3 * 2 * size);
    expect(totals.by_kind.lossless).toBe(1000);
    expect(totals.by_kind.other).toBeGreaterThan(0); // the peaks files
    expect(totals.total_bytes).toBe(
      Object.values(totals.by_kind).reduce((sum, bytes) => sum + bytes, 0),
    );
  });

  it('applies USER_STORAGE_QUOTA, and a person’s own quota over it; GET /api/account/storage answers it', async () => {
    t = await createTestApp({ env: { USER_STORAGE_QUOTA: '20GB' } });
    const db = t.deps.database.db;
    const me = await buildUser(db);
    const other = await buildUser(db);
    const p = await buildProject(db, me.id);
    await buildVersion(
      depsOf(t),
      { projectId: p.project.id, branchId: p.branch.id },
      { file: wav },
    );
    const size = fs.statSync(wav).size;

    const mine = await api(t, me.cookie).get('/api/account/storage');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual({ used_bytes: size, quota_bytes: 20 * GB });

    await db
      .insertInto('user_controls')
      .values({ user_id: me.id, storage_quota_bytes: 5 * GB, updated_at: new Date().toISOString() })
      .execute();
    expect((await api(t, me.cookie).get('/api/account/storage')).json()).toEqual({
      used_bytes: size,
      quota_bytes: 5 * GB,
    });
    // Others keep the instance's.
    expect((await api(t, other.cookie).get('/api/account/storage')).json()).toEqual({
      used_bytes: 0,
      quota_bytes: 20 * GB,
    });
    // Signed out: 401.
    expect((await t.app.inject({ method: 'GET', url: '/api/account/storage' })).statusCode).toBe(
      401,
    );
  });

  it('refuses what would go over, saying by how much; holds count until released', async () => {
    t = await createTestApp({ env: { USER_STORAGE_QUOTA: '20GB' } });
    const me = await buildUser(t.deps.database.db);
    const quotas = t.services.quotas;

    const first = await quotas.reserve(me.id, Math.round(19.6 * GB));
    expect(first).toBeDefined();
    const refusal = await quotas.reserve(me.id, Math.round(1.6 * GB)).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).kind).toBe('too_large');
    expect((refusal as AppError).code).toBe('storage_quota_exceeded');
    expect((refusal as AppError).message).toBe(
      'This upload would go over your storage quota by 1.2 GB (19.6 GB of 20 GB used).',
    );
    // Told to an editor or a guest: the owner's quota, without its figures.
    const guest = await quotas
      .check(me.id, Math.round(1.6 * GB), { uploaderId: null })
      .catch((e: unknown) => e);
    expect((guest as AppError).message).toBe(
      "This upload would go over the owner's storage quota by 1.2 GB.",
    );
    // Re-holding the same upload with its real size replaces its hold.
    await quotas.reserve(me.id, 10 * GB, { id: first?.id });
    await quotas.check(me.id, 10 * GB);
    await quotas.release(first?.id);
    await quotas.check(me.id, 20 * GB);
    await expect(quotas.check(me.id, 20 * GB + 1)).rejects.toThrow(
      'This upload would go over your storage quota by 1 byte (0 bytes of 20 GB used).',
    );
  });

  it('of two holds started together only the one that fits passes', async () => {
    t = await createTestApp({ env: { USER_STORAGE_QUOTA: '1GB' } });
    const me = await buildUser(t.deps.database.db);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => t.services.quotas.reserve(me.id, Math.round(0.6 * GB))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    const held = await t.deps.database.db
      .selectFrom('storage_reservations')
      .select('bytes')
      .where('user_id', '=', me.id)
      .execute();
    expect(held.map((r) => Number(r.bytes))).toEqual([Math.round(0.6 * GB)]);
  });

  it('a hold past its time no longer counts', async () => {
    t = await createTestApp({ env: { USER_STORAGE_QUOTA: '1GB' } });
    const me = await buildUser(t.deps.database.db);
    await t.services.quotas.reserve(me.id, GB, { ttlMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.services.quotas.check(me.id, GB);
    await t.services.quotas.sweep();
    expect(
      await t.deps.database.db.selectFrom('storage_reservations').selectAll().execute(),
    ).toEqual([]);
  });

  it('the recurring job sweeps holds past their time and keeps live ones', async () => {
    t = await createTestApp({ env: { USER_STORAGE_QUOTA: '1GB' } });
    // Two people: a person's next hold clears their own lapsed ones, the job everyone's.
    const gone = await buildUser(t.deps.database.db);
    const me = await buildUser(t.deps.database.db);
    await t.services.quotas.reserve(gone.id, GB / 4, { ttlMs: 1 });
    const live = (await t.services.quotas.reserve(me.id, GB / 4))?.id;
    const holds = () =>
      t.deps.database.db.selectFrom('storage_reservations').select('id').execute();
    expect(await holds()).toHaveLength(2);
    await t.deps.jobs.startWorking();
    await t.deps.jobs.enqueue(sweepStorageHoldsJob, {});
    await eventually(async () => (await holds()).length === 1);
    expect((await holds()).map((h) => h.id)).toEqual([live]);
  });
});
