import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { addMember, buildProject, buildUser, buildVersion } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/**
 * The dashboard's figures for an account with a long history: versions older than 30 days are not
 * counted, a new version in an old project is, and shared projects count as the person's own.
 */
describe('stats over a long history', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('counts last month’s versions of old, new and shared projects, and the latest update', async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    const deps = { db, storage: t.deps.storage };
    const [me, other] = [await buildUser(db), await buildUser(db)];
    const old = await buildProject(db, me.id, { created_at: ago(400), updated_at: ago(400) });
    for (const days of [300, 200, 45])
      await buildVersion(deps, ids(old), { overrides: { created_at: ago(days) } });
    const quiet = await buildProject(db, me.id, { created_at: ago(90), updated_at: ago(90) });
    await buildVersion(deps, ids(quiet), { overrides: { created_at: ago(60) } });
    const shared = await buildProject(db, other.id, { created_at: ago(100), updated_at: ago(100) });
    await addMember(db, { projectId: shared.project.id }, me.id, 'viewer');
    const sharedLatest = ago(5);
    await buildVersion(deps, ids(shared), { overrides: { created_at: sharedLatest } });
    const notMine = await buildProject(db, other.id);
    await buildVersion(deps, ids(notMine), { overrides: { created_at: ago(1) } });

    const stats = async () =>
      (await api(t, me.cookie).get('/api/stats')).json<{
        projects: number;
        tracks: number;
        last_update: string | null;
        versions_last_month: number;
      }>();
    expect(await stats()).toMatchObject({ projects: 3, tracks: 3, versions_last_month: 1 });
    // The latest update of any of them: the shared project's, touched by its version.
    expect((await stats()).last_update).toBe(sharedLatest);

    // A new version of the old project, uploaded now, counts; the project's older ones still not.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-stats-'));
    try {
      const wav = await makeAudio(dir, 'wav', 1, 'Late Take.wav');
      const up = await api(t, me.cookie).upload(
        { path: wav },
        { project_id: old.project.id, branch_id: old.branch.id, commit_message: 'Late take' },
      );
      expect(up.statusCode, up.body).toBe(201);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const after = await stats();
    expect(after).toMatchObject({ projects: 3, tracks: 3, versions_last_month: 2 });
    expect(Date.parse(after.last_update ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });
});

function ids(built: { project: { id: string }; branch: { id: string } }) {
  return { projectId: built.project.id, branchId: built.branch.id };
}
