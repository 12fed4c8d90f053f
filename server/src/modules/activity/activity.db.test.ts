import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@takes/contract';
import { api } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { TickingClock } from './testing';

describe('activity: comments are recorded once, in their transaction; the panel pages by cursor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock: new TickingClock() });
  });
  afterAll(() => t.close());

  async function rows(projectId: string) {
    return t.deps.database.db
      .selectFrom('activity')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async function setup() {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia' });
    const { project, branch } = await buildProject(db, owner.id);
    await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
    const version = await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
    const maya = await buildMember(db, { projectId: project.id }, 'commenter', { name: 'Maya' });
    const viewer = await buildMember(db, { projectId: project.id }, 'viewer', { name: 'Vic' });
    return { owner, project, branch, version, maya, viewer };
  }

  it('records comment.posted / replied / resolved / reopened / deleted once each, with readable lines', async () => {
    const { owner, project, branch, version, maya } = await setup();
    const posted = await api(t, maya.cookie).post(`/api/versions/${version.id}/comments`, {
      content: 'Kick too loud',
      timestamp: 83,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const commentId = posted.json<{ id: string }>().id;
    const reply = await api(t, owner.cookie).post(`/api/versions/${version.id}/comments`, {
      content: 'Fixed',
      parent_id: commentId,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const replyId = reply.json<{ id: string }>().id;
    expect(
      (await api(t, maya.cookie).patch(`/api/comments/${commentId}`, { resolved: true }))
        .statusCode,
    ).toBe(200);
    expect(
      (await api(t, maya.cookie).patch(`/api/comments/${commentId}`, { resolved: false }))
        .statusCode,
    ).toBe(200);
    expect((await api(t, owner.cookie).delete(`/api/comments/${replyId}`)).statusCode).toBe(204);

    const recorded = await rows(project.id);
    expect(recorded.map((r) => [r.kind, r.target_id, r.actor_id])).toEqual([
      ['comment.posted', commentId, maya.id],
      ['comment.replied', replyId, owner.id],
      ['comment.resolved', commentId, maya.id],
      ['comment.reopened', commentId, maya.id],
      ['comment.deleted', replyId, owner.id],
    ]);
    // A copy of the name then, kept should the account go.
    expect(recorded.map((r) => r.actor_name)).toEqual(['Maya', 'Olivia', 'Maya', 'Maya', 'Olivia']);

    const page = await api(t, owner.cookie).get(`/api/projects/${project.id}/activity`);
    expect(page.statusCode, page.body).toBe(200);
    const { items, next_cursor } = page.json<ActivityPage>();
    expect(next_cursor).toBeNull();
    const posting = items.find((i) => i.kind === 'comment.posted');
    expect(posting).toMatchObject({
      summary: 'Maya commented at 1:23 on Version 2',
      href: `/projects/${project.id}/branches/${branch.id}/versions/${version.id}?t=83`,
      actor: { user_id: maya.id, name: 'Maya', avatar_url: null },
      project_id: project.id,
      repo_id: null,
    });
    expect(items.find((i) => i.kind === 'comment.replied')?.summary).toBe(
      'Olivia replied on Version 2',
    );
    expect(items[0]?.kind).toBe('comment.deleted');
  });

  it('writes nothing when the change is refused or fails', async () => {
    const { project, version, viewer, maya } = await setup();
    // A Viewer may not comment (403).
    const refused = await api(t, viewer.cookie).post(`/api/versions/${version.id}/comments`, {
      content: 'Hello',
    });
    expect(refused.statusCode).toBe(403);
    // A reply to a missing comment fails (404).
    const missing = await api(t, maya.cookie).post(`/api/versions/${version.id}/comments`, {
      content: 'Hello',
      parent_id: '00000000-0000-0000-0000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(await rows(project.id)).toEqual([]);
  });

  it("pages newest first with an opaque cursor ('Load more') and hides a project from non-members", async () => {
    const { owner, project, version, maya } = await setup();
    for (let i = 0; i < 5; i++) {
      const r = await api(t, maya.cookie).post(`/api/versions/${version.id}/comments`, {
        content: `Note ${i}`,
        timestamp: i,
      });
      expect(r.statusCode).toBe(201);
    }
    const all = (await rows(project.id)).reverse().map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/projects/${project.id}/activity?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await api(t, owner.cookie).get(url);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<ActivityPage>();
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);

    const defaultPage = await api(t, owner.cookie).get(`/api/projects/${project.id}/activity`);
    expect(defaultPage.json<ActivityPage>().items).toHaveLength(5);

    const stranger = await buildUser(t.deps.database.db);
    expect(
      (await api(t, stranger.cookie).get(`/api/projects/${project.id}/activity`)).statusCode,
    ).toBe(404);
    const repo = await buildRepo(t.deps.database.db, owner.id);
    expect((await api(t, stranger.cookie).get(`/api/repos/${repo.id}/activity`)).statusCode).toBe(
      404,
    );
    const bad = await api(t, owner.cookie).get(`/api/projects/${project.id}/activity?cursor=zzz`);
    expect(bad.statusCode).toBe(400);
  });
});
