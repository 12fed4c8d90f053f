import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { buildCommit, buildProject, buildRepo, buildUser } from '../../../test/factories';
import { migrationSuite } from '../../../test/migration-test';
import { migratorOf } from '../migrate';
import type { Database } from '../schema';

describe('migration 0039-repo-upload-links', () => {
  const { fresh } = migrationSuite('0039-repo-upload-links');

  const link = (place: object) => ({
    id: randomUUID(),
    created_by: 'someone',
    key: `k${randomUUID().replace(/-/g, '')}`,
    name: 'Bass takes',
    message: null,
    password_hash: null,
    max_files: 10,
    max_bytes: 1000,
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    revoked_at: null,
    created_at: new Date().toISOString(),
    ...place,
  });
  const file = (linkId: string, place: object) => ({
    id: randomUUID(),
    link_id: linkId,
    link_name: 'Bass takes',
    guest_name: 'Sam',
    guest_email: null,
    original_key: `originals/${randomUUID()}`,
    original_name: 'take.wav',
    original_size: 10,
    original_format: 'wav',
    status: 'completed' as const,
    error: null,
    metadata: null,
    waveform: null,
    loudness: null,
    renditions: '{}',
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    ...place,
  });

  async function world(db: Kysely<Database>) {
    const owner = await buildUser(db);
    const { project, branch } = await buildProject(db, owner.id);
    const repo = await buildRepo(db, owner.id);
    const { branch: repoBranch } = await buildCommit(db, repo.id);
    return {
      project: { project_id: project.id, branch_id: branch.id },
      repo: { repo_id: repo.id, repo_branch_id: repoBranch.id },
      repoId: repo.id,
    };
  }

  it('holds exactly one place per link and file, and a repository takes its own with it', async () => {
    const { db } = await fresh();
    const w = await world(db);
    const both = link({ ...w.project, ...w.repo });
    await expect(db.insertInto('upload_links').values(both).execute()).rejects.toThrow();
    await expect(db.insertInto('upload_links').values(link({})).execute()).rejects.toThrow();
    const half = link({ project_id: w.project.project_id, repo_branch_id: w.repo.repo_branch_id });
    await expect(db.insertInto('upload_links').values(half).execute()).rejects.toThrow();
    const repoLink = link(w.repo);
    await db.insertInto('upload_links').values(repoLink).execute();
    const repoFile = file(repoLink.id, w.repo);
    await db.insertInto('guest_files').values(repoFile).execute();
    await expect(
      db
        .insertInto('guest_files')
        .values(file(repoLink.id, { ...w.repo, ...w.project }))
        .execute(),
    ).rejects.toThrow();
    await db.deleteFrom('repos').where('id', '=', w.repoId).execute();
    expect(await db.selectFrom('upload_links').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('guest_files').select('id').execute()).toEqual([]);
  });

  it("keeps a project's links and files (and their link) down and up again; down drops a repository's", async () => {
    const { db } = await fresh();
    const w = await world(db);
    const projectLink = link(w.project);
    const repoLink = link(w.repo);
    await db.insertInto('upload_links').values([projectLink, repoLink]).execute();
    const projectFile = file(projectLink.id, w.project);
    await db
      .insertInto('guest_files')
      .values([projectFile, file(repoLink.id, w.repo)])
      .execute();
    const kept = async () => ({
      links: (await db.selectFrom('upload_links').select('id').execute()).map((r) => r.id),
      files: await db.selectFrom('guest_files').select(['id', 'link_id']).execute(),
    });
    const migrator = await migratorOf(db);
    expect((await migrator.migrateTo('0038-upload-links')).error).toBeUndefined();
    const expected = {
      links: [projectLink.id],
      files: [{ id: projectFile.id, link_id: projectLink.id }],
    };
    expect(await kept()).toEqual(expected);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await kept()).toEqual(expected);
    // Still pointing at the rebuilt table: a link's deletion leaves its files, without it.
    await db.deleteFrom('upload_links').where('id', '=', projectLink.id).execute();
    expect(await kept()).toEqual({ links: [], files: [{ id: projectFile.id, link_id: null }] });
  });
});
