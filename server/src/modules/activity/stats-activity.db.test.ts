import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsResponse } from '@takes/contract';
import { api } from '../../../test/api';
import { buildMember, buildProject, buildRepo, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

describe("the dashboard's Activity figure", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function event(place: { projectId: string } | { repoId: string }, daysAgo: number) {
    await t.deps.database.db
      .insertInto('activity')
      .values({
        id: randomUUID(),
        project_id: 'projectId' in place ? place.projectId : null,
        repo_id: 'repoId' in place ? place.repoId : null,
        actor_id: null,
        actor_name: 'Someone',
        kind: 'comment.posted',
        target_id: null,
        data: '{}',
        created_at: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
      })
      .execute();
  }

  it('counts the events of the last 30 days on the projects and repositories the caller can see', async () => {
    const db = t.deps.database.db;
    const me = await buildUser(db);
    const other = await buildUser(db);
    const mine = (await buildProject(db, me.id)).project;
    const shared = (await buildProject(db, other.id)).project;
    const hidden = (await buildProject(db, other.id)).project;
    const myRepo = await buildRepo(db, me.id);
    const sharedRepo = await buildRepo(db, other.id);
    const hiddenRepo = await buildRepo(db, other.id);
    await buildMember(db, { projectId: shared.id }, 'viewer');
    await db
      .insertInto('project_members')
      .values({ project_id: shared.id, user_id: me.id, role: 'viewer', created_at: '2026-01-01' })
      .execute();
    await db
      .insertInto('repo_members')
      .values({ repo_id: sharedRepo.id, user_id: me.id, role: 'editor', created_at: '2026-01-01' })
      .execute();

    const stats = async () =>
      (await api(t, me.cookie).get('/api/stats')).json<StatsResponse>().activity_last_month;
    expect(await stats()).toBe(0);

    await event({ projectId: mine.id }, 1);
    await event({ projectId: mine.id }, 29);
    await event({ projectId: mine.id }, 31);
    await event({ projectId: shared.id }, 2);
    await event({ projectId: hidden.id }, 1);
    await event({ repoId: myRepo.id }, 3);
    await event({ repoId: sharedRepo.id }, 4);
    await event({ repoId: sharedRepo.id }, 40);
    await event({ repoId: hiddenRepo.id }, 1);
    expect(await stats()).toBe(5);

    // A real event through the app counts too.
    const made = await api(t, me.cookie).post(`/api/projects/${mine.id}/branches`, { name: 'alt' });
    expect(made.statusCode).toBe(201);
    expect(await stats()).toBe(6);
    // The other owner counts their own projects and repositories, not the caller's.
    expect(
      (await api(t, other.cookie).get('/api/stats')).json<StatsResponse>().activity_last_month,
    ).toBe(4);
  });
});
