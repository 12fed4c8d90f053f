import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@takes/contract';
import { api } from '../../../test/api';
import { buildMember, buildRepo, buildUser } from '../../../test/factories';
import { publishFile } from '../../../test/repos-setup';
import type { TestApp } from '../../../test/test-app';
import { useActivityApp } from './testing';

describe('activity: repository commits and published bounces', () => {
  const app = useActivityApp('Night Mix.wav');
  let t: TestApp;
  let wav: string;
  beforeAll(() => {
    ({ t, wav } = app);
  });

  it('records each commit once (a publish that makes one counts once) and each completed publish', async () => {
    const db = t.deps.database.db;
    const olivia = await buildUser(db, { name: 'Olivia' });
    const repo = await buildRepo(db, olivia.id);
    const viewer = await buildMember(db, { repoId: repo.id }, 'viewer');
    const as = api(t, olivia.cookie);
    const committed = await as.post(`/api/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'Rough vocals',
    });
    expect(committed.statusCode, committed.body).toBe(201);
    // Refused (a Viewer) and failed (a parent not on the branch) commits record nothing.
    expect(
      (
        await api(t, viewer.cookie).post(`/api/repos/${repo.id}/commits`, {
          branch: 'main',
          message: 'Mine',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await as.post(`/api/repos/${repo.id}/commits`, {
          branch: 'main',
          message: 'Stale',
          parent: 'f'.repeat(40),
        })
      ).statusCode,
    ).toBe(409);

    // On the head commit: no new commit; on a new branch: one commit made by the publish.
    await publishFile(t, as, repo.id, wav, { title: 'Take One' });
    await publishFile(t, as, repo.id, wav, { branch: 'alt', title: 'Take Two' });

    const rows = await db
      .selectFrom('activity')
      .selectAll()
      .where('repo_id', '=', repo.id)
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => r.kind)).toEqual([
      'repo.committed',
      'bounce.published',
      'repo.committed',
      'bounce.published',
    ]);
    expect(rows.every((r) => r.actor_id === olivia.id && r.project_id === null)).toBe(true);

    const page = (await as.get(`/api/repos/${repo.id}/activity`)).json<ActivityPage>();
    const shaOf = (i: number) => (JSON.parse(rows[i]?.data ?? '{}') as { sha: string }).sha;
    const sha = shaOf(0);
    const altSha = shaOf(2);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(shaOf(1)).toBe(sha);
    const r = `/repositories/${repo.id}`;
    expect(page.items.map((i) => [i.summary, i.href]).reverse()).toEqual([
      ["Olivia committed 'Rough vocals'", `${r}/commit/${sha}`],
      ["Olivia published the bounce 'Take One'", `${r}/commit/${sha}`],
      ["Olivia committed 'Publish Take Two'", `${r}/commit/${altSha}`],
      ["Olivia published the bounce 'Take Two'", `${r}/commit/${altSha}`],
    ]);
  });
});
