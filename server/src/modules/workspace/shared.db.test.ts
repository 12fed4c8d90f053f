import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResponse, StatsResponse } from '@takes/contract';
import { api } from '../../../test/api';
import {
  addMember,
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const DAY = 24 * 60 * 60 * 1000;
const secondsApart = (a: string | null, b: string) =>
  Math.abs(Date.parse(a ?? '') - Date.parse(b)) / 1000;

// The dashboard's figures and search cover the projects a person is a member of, not only
// their own, and stop covering them the moment the membership ends.
describe('stats and search include shared projects', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('a member’s stats and search include a shared project’s branches and versions; after removal they do not', async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    const owner = await buildUser(db);
    const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

    // The owner's shared project: two branches, a version this month and one long ago.
    const { project, branch } = await buildProject(db, owner.id, {
      name: 'Moonlit Session',
      description: 'Late takes',
      updated_at: ago(1),
    });
    const remix = { id: `${project.id}-remix`, name: 'moon-remix' };
    await db
      .insertInto('branches')
      .values({
        id: remix.id,
        project_id: project.id,
        name: remix.name,
        is_default: 0,
        created_at: ago(1),
        updated_at: ago(1),
      })
      .execute();
    const recent = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      {
        overrides: { message: 'Moon chorus louder', tags: '["moonwave"]', created_at: ago(2) },
      },
    );
    await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: remix.id },
      { overrides: { message: 'Old moon sketch', created_at: ago(60) } },
    );
    // Another project of the owner's, not shared.
    const other = await buildProject(db, owner.id, { name: 'Moon Private' });
    await buildVersion(
      depsOf(t),
      { projectId: other.project.id, branchId: other.branch.id },
      { overrides: { message: 'moon secret' } },
    );

    // The member has a project of their own too.
    const member = await buildMember(db, { projectId: project.id }, 'viewer');
    const mine = await buildProject(db, member.id, { name: 'My Own', updated_at: ago(5) });
    await buildVersion(
      depsOf(t),
      { projectId: mine.project.id, branchId: mine.branch.id },
      { overrides: { message: 'my take', created_at: ago(3) } },
    );
    const client = api(t, member.cookie);
    const stats = async () => (await client.get('/api/stats')).json<StatsResponse>();
    const search = async (q: string) =>
      (await client.get(`/api/search?q=${encodeURIComponent(q)}`)).json<SearchResponse>();

    // As stored now: a new version touches its project, as the app does.
    const updatedAt = async (id: string) =>
      (
        await db
          .selectFrom('projects')
          .select('updated_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).updated_at;
    const before = await stats();
    expect(before).toMatchObject({ projects: 2, tracks: 3, versions_last_month: 2 });
    // The newest update among both projects: the shared one's.
    expect(secondsApart(before.last_update, await updatedAt(project.id))).toBeLessThan(1);

    const found = await search('moon');
    expect(found.projects).toEqual([
      { id: project.id, name: 'Moonlit Session', description: 'Late takes' },
    ]);
    expect(found.branches).toEqual([
      { id: remix.id, name: 'moon-remix', project_id: project.id, project_name: 'Moonlit Session' },
    ]);
    expect(found.versions.map((v) => [v.message, v.project_name, v.branch_name])).toEqual([
      ['Moon chorus louder', 'Moonlit Session', 'main'],
      ['Old moon sketch', 'Moonlit Session', 'moon-remix'],
    ]);
    expect((await search('moonwave')).versions.map((v) => v.id)).toEqual([recent.id]);
    expect((await search('my take')).versions).toHaveLength(1);

    // Another role shows the same: being a member at all is what counts.
    await db
      .updateTable('project_members')
      .set({ role: 'editor' })
      .where('user_id', '=', member.id)
      .execute();
    expect((await stats()).projects).toBe(2);

    // Removed: only their own project is left.
    await db.deleteFrom('project_members').where('user_id', '=', member.id).execute();
    const after = await stats();
    expect(after).toMatchObject({ projects: 1, tracks: 1, versions_last_month: 1 });
    expect(secondsApart(after.last_update, await updatedAt(mine.project.id))).toBeLessThan(1);
    expect(await search('moon')).toEqual({ projects: [], branches: [], versions: [] });
    expect((await search('my take')).versions).toHaveLength(1);

    // The owner's figures never changed: their two projects, counted once each.
    await addMember(db, { projectId: other.project.id }, member.id, 'commenter');
    const ownerStats = (await api(t, owner.cookie).get('/api/stats')).json<StatsResponse>();
    expect(ownerStats).toMatchObject({ projects: 2, tracks: 3 });
    expect((await search('secret')).versions.map((v) => v.message)).toEqual(['moon secret']);
  });
});
