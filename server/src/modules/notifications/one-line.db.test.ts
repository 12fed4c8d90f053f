import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type ActivityItem } from '@takes/contract';
import { api, client } from '../../../test/api';
import { buildMember, buildRepo, buildUser } from '../../../test/factories';
import { publishFile } from '../../../test/repos-setup';
import type { TestApp } from '../../../test/test-app';
import { useActivityApp } from '../activity/testing';

const { activity } = endpoints;

/** The bell and the 'Activity' panel show one event in the same words: one presenter. */
describe('a notification reads as its line in the Activity panel', () => {
  const app = useActivityApp('Mix 3.wav');
  let t: TestApp;
  let wav: string;
  beforeAll(() => {
    ({ t, wav } = app);
  });

  /** Each of the reader's notifications beside the panel's line of the same event. */
  async function side(
    cookie: string,
    panel: ActivityItem[],
  ): Promise<{ bell: ActivityItem; panel: ActivityItem | undefined }[]> {
    const bell = await client(t, cookie).call(activity.listNotifications, { query: { limit: 50 } });
    return bell.items.map((n) => ({
      bell: n.activity,
      panel: panel.find((item) => item.id === n.activity.id),
    }));
  }

  it('in a repository: "published the bounce \'Mix 3\'" and its commit', async () => {
    const db = t.deps.database.db;
    const olivia = await buildUser(db, { name: 'Olivia' });
    const repo = await buildRepo(db, olivia.id);
    const lee = await buildMember(db, { repoId: repo.id }, 'viewer', { name: 'Lee' });
    const as = api(t, olivia.cookie);
    const committed = await as.post(`/api/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'Rough vocals',
    });
    expect(committed.statusCode, committed.body).toBe(201);
    await publishFile(t, as, repo.id, wav, { title: 'Mix 3' });

    const panel = await client(t, lee.cookie).call(activity.listRepoActivity, {
      params: { id: repo.id },
      query: { limit: 50 },
    });
    const pairs = await side(lee.cookie, panel.items);
    expect(pairs.map((p) => p.bell.summary)).toEqual([
      "Olivia published the bounce 'Mix 3'",
      "Olivia committed 'Rough vocals'",
    ]);
    for (const { bell, panel: line } of pairs) expect(bell).toEqual(line);
  });

  it('in a project: uploads and comments, by an email-and-password account too', async () => {
    const db = t.deps.database.db;
    // An email-and-password sign-up: no account name, named by its address before the @.
    const local = `sam.${randomUUID().slice(0, 8)}`;
    const owner = await buildUser(db, { name: '', email: `${local}@studio.example` });
    const as = client(t, owner.cookie);
    const project = await as.call(endpoints.projects.createProject, { body: { name: 'Night' } });
    const branchId = project.branches[0]?.id ?? '';
    const editor = await buildMember(db, { projectId: project.id }, 'editor', { name: 'Eddie' });
    const maya = await buildMember(db, { projectId: project.id }, 'commenter', { name: 'Maya' });
    const uploaded = await api(t, owner.cookie).upload(
      { path: wav },
      { project_id: project.id, branch_id: branchId, commit_message: 'Mix 3' },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { version_id: versionId } = uploaded.json<{ version_id: string }>();
    const posted = await client(t, maya.cookie).call(endpoints.comments.addVersionComment, {
      params: { versionId },
      body: { content: 'Kick too loud', timestamp: 0.5 },
    });
    await as.call(endpoints.comments.addVersionComment, {
      params: { versionId },
      body: { content: 'Fixed', parent_id: posted.id },
    });

    const panel = await client(t, editor.cookie).call(activity.listProjectActivity, {
      params: { projectId: project.id },
      query: { limit: 50 },
    });
    const pairs = await side(editor.cookie, panel.items);
    expect(pairs.map((p) => p.bell.summary)).toEqual([
      `${local} replied on Version 1`,
      'Maya commented at 0:00 on Version 1',
      `${local} uploaded Version 1 to main`,
    ]);
    for (const { bell, panel: line } of pairs) expect(bell).toEqual(line);
  });
});
