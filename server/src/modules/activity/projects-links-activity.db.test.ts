import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage, ShareLink } from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import type { TestApp } from '../../../test/test-app';
import { isStartOfFile } from '../sharing';
import { useActivityApp } from './testing';

describe('activity: branches, the project, share links and their plays', () => {
  const app = useActivityApp('Mix.wav');
  let t: TestApp;
  let wav: string;
  beforeAll(() => {
    ({ t, wav } = app);
  });

  const recorded = (projectId: string) =>
    t.deps.database.db
      .selectFrom('activity')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .execute();

  async function summaries(cookie: string, projectId: string) {
    const res = await api(t, cookie).get(`/api/projects/${projectId}/activity?limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<ActivityPage>()
      .items.map((i) => [i.kind, i.summary, i.href])
      .reverse();
  }

  it('records branch and project changes once each; refused or failed ones record nothing', async () => {
    const db = t.deps.database.db;
    const olivia = await buildUser(db, { name: 'Olivia' });
    const { project } = await buildProject(db, olivia.id, { name: 'Client Mix' });
    const viewer = await buildMember(db, { projectId: project.id }, 'viewer');
    const as = api(t, olivia.cookie);
    const p = `/projects/${project.id}`;

    const created = await as.post(`/api/projects/${project.id}/branches`, { name: 'mastering' });
    expect(created.statusCode, created.body).toBe(201);
    const branchId = created.json<{ id: string }>().id;
    // A duplicate name (409) and a Viewer's attempt (403) change nothing and record nothing.
    expect(
      (await as.post(`/api/projects/${project.id}/branches`, { name: 'mastering' })).statusCode,
    ).toBe(409);
    expect(
      (await api(t, viewer.cookie).post(`/api/projects/${project.id}/branches`, { name: 'x' }))
        .statusCode,
    ).toBe(403);
    expect((await as.patch(`/api/branches/${branchId}`, { name: 'master' })).statusCode).toBe(200);
    expect((await as.post(`/api/branches/${branchId}/default`)).statusCode).toBe(200);
    // Already the default: nothing changes, nothing is recorded.
    expect((await as.post(`/api/branches/${branchId}/default`)).statusCode).toBe(200);
    const other = await as.post(`/api/projects/${project.id}/branches`, { name: 'old' });
    expect((await as.delete(`/api/branches/${other.json<{ id: string }>().id}`)).statusCode).toBe(
      204,
    );
    expect((await as.patch(`/api/projects/${project.id}`, { name: 'Final Mix' })).statusCode).toBe(
      200,
    );
    // Only the description: not a rename.
    expect(
      (await as.patch(`/api/projects/${project.id}`, { description: 'Notes' })).statusCode,
    ).toBe(200);
    expect((await as.post(`/api/projects/${project.id}/toggle-privacy`)).statusCode).toBe(200);
    expect((await as.post(`/api/projects/${project.id}/toggle-privacy`)).statusCode).toBe(200);
    expect(
      (await api(t, viewer.cookie).post(`/api/projects/${project.id}/toggle-privacy`)).statusCode,
    ).toBe(403);

    expect(await summaries(olivia.cookie, project.id)).toEqual([
      ['branch.created', 'Olivia created the branch mastering', p],
      ['branch.renamed', 'Olivia renamed the branch mastering to master', p],
      ['branch.default_set', 'Olivia made master the default branch', p],
      ['branch.created', 'Olivia created the branch old', p],
      ['branch.deleted', 'Olivia deleted the branch old', p],
      ['project.renamed', 'Olivia renamed the project to Final Mix', p],
      ['project.made_public', 'Olivia made the project public', p],
      ['project.made_private', 'Olivia made the project private', p],
    ]);
    expect((await recorded(project.id)).every((r) => r.actor_id === olivia.id)).toBe(true);
  });

  it('records link created and revoked; counts plays of the start of the file only; the first play once, by A listener', async () => {
    const db = t.deps.database.db;
    const olivia = await buildUser(db, { name: 'Olivia' });
    const { project, branch } = await buildProject(db, olivia.id, { name: 'Client Mix' });
    await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true },
    );
    const as = api(t, olivia.cookie);
    const made = await as.post(`/api/versions/${version.id}/links`, { download_enabled: false });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json<ShareLink>();
    expect(link.name).toBe('Client Mix - Version 2');

    const play = (range?: string, remoteAddress = '203.0.113.9') =>
      t.app.inject({
        method: 'GET',
        url: `/api/links/hash/${link.hash}/audio`,
        headers: {
          origin: ORIGIN,
          'user-agent': 'Listener Browser/1.0',
          ...(range ? { range } : {}),
        },
        remoteAddress,
      });
    const counts = async () => {
      const list = (await as.get(`/api/versions/${version.id}/links`)).json<ShareLink[]>();
      const found = list.find((l) => l.id === link.id);
      return [found?.play_count, found?.last_played_at !== null];
    };
    expect(await counts()).toEqual([0, false]);

    // Seeking (a range past the start) is not a play.
    expect((await play('bytes=1000-')).statusCode).toBe(206);
    expect(await counts()).toEqual([0, false]);
    expect((await play()).statusCode).toBe(200);
    expect(await counts()).toEqual([1, true]);
    // (Another listener: one address's plays count once an hour, see listen-counts.db.test.ts.)
    expect((await play('bytes=0-', '203.0.113.10')).statusCode).toBe(206);
    expect((await play('bytes=500-999')).statusCode).toBe(206);
    expect(await counts()).toEqual([2, true]);

    const firstPlays = (await recorded(project.id)).filter((r) => r.kind === 'link.first_played');
    expect(firstPlays).toHaveLength(1);
    expect(firstPlays[0]).toMatchObject({ actor_id: null, actor_name: 'A listener' });
    // Nothing about the visitor is kept: not in the link, not in the activity.
    const stored = JSON.stringify([
      await db.selectFrom('links').selectAll().where('id', '=', link.id).execute(),
      await recorded(project.id),
    ]);
    expect(stored).not.toContain('203.0.113.9');
    expect(stored).not.toContain('Listener Browser');

    // A visitor's comment through the link: their self-entered name is the actor.
    const visitorComment = await t.app.inject({
      method: 'POST',
      url: `/api/links/hash/${link.hash}/comments`,
      payload: { content: 'Love the intro', timestamp: 1, visitor_name: 'Jane from the label' },
      headers: { origin: ORIGIN },
    });
    expect(visitorComment.statusCode, visitorComment.body).toBe(201);
    expect((await as.delete(`/api/links/${link.id}`)).statusCode).toBe(204);
    // A revoked link: not found, not counted, not recorded again.
    expect((await as.delete(`/api/links/${link.id}`)).statusCode).toBe(404);
    expect((await play()).statusCode).toBe(404);

    const page = `/projects/${project.id}/branches/${branch.id}/versions/${version.id}`;
    expect(await summaries(olivia.cookie, project.id)).toEqual([
      ['link.created', "Olivia created the share link 'Client Mix - Version 2'", page],
      [
        'link.first_played',
        "A listener played the share link 'Client Mix - Version 2' for the first time",
        page,
      ],
      ['comment.posted', 'Jane from the label commented at 0:01 on Version 2', `${page}?t=1`],
      ['link.revoked', "Olivia revoked the share link 'Client Mix - Version 2'", page],
    ]);
  });

  it('tells a start-of-file request from a seek', () => {
    expect(isStartOfFile(undefined)).toBe(true);
    expect(isStartOfFile('bytes=0-')).toBe(true);
    expect(isStartOfFile('bytes=0-1')).toBe(true);
    expect(isStartOfFile('bytes=1-')).toBe(false);
    expect(isStartOfFile('bytes=100-200')).toBe(false);
    expect(isStartOfFile('bytes=-500')).toBe(false);
  });
});
