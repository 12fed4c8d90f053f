import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@takes/contract';
import { api } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { runJobs } from '../../../test/stored-audio-setup';
import type { TestApp } from '../../../test/test-app';
import { processVersionJob } from '../audio/jobs';
import { processVersion } from '../audio/processing';
import { useActivityApp } from './testing';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('activity: versions uploaded, processed and failed', () => {
  const app = useActivityApp('Client Mix.wav');
  let t: TestApp;
  let wav: string;
  beforeAll(() => {
    ({ t, wav } = app);
  });

  const kinds = async (projectId: string) =>
    (
      await t.deps.database.db
        .selectFrom('activity')
        .select(['kind', 'actor_id', 'actor_name', 'target_id'])
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .execute()
    ).map((r) => r.kind);

  it('an upload records version.uploaded, its processing version.processed once (a re-run records nothing)', async () => {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia' });
    const { project, branch } = await buildProject(db, owner.id);
    const sam = await buildMember(db, { projectId: project.id }, 'editor', { name: 'Sam' });
    await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
    const response = await api(t, sam.cookie).upload(
      { path: wav },
      { project_id: project.id, branch_id: branch.id, commit_message: 'Louder vocals' },
    );
    expect(response.statusCode, response.body).toBe(201);
    const { version_id: versionId } = response.json<{ version_id: string }>();
    expect(await kinds(project.id)).toEqual(['version.uploaded']);

    await runJobs(t);
    expect(await kinds(project.id)).toEqual(['version.uploaded', 'version.processed']);
    // The same job again (a retry, a duplicate): the version is already completed.
    await t.deps.jobs.enqueue(processVersionJob, { versionId });
    await runJobs(t);
    expect(await kinds(project.id)).toEqual(['version.uploaded', 'version.processed']);

    const page = (
      await api(t, owner.cookie).get(`/api/projects/${project.id}/activity`)
    ).json<ActivityPage>();
    const href = `/projects/${project.id}/branches/${branch.id}/versions/${versionId}`;
    expect(page.items.map((i) => [i.summary, i.href, i.actor.user_id])).toEqual([
      ['Version 2 on main finished processing', href, sam.id],
      ['Sam uploaded Version 2 to main', href, sam.id],
    ]);
  });

  it('a refused upload (a Viewer, 403) or an invalid one records nothing', async () => {
    const db = t.deps.database.db;
    const owner = await buildUser(db);
    const { project, branch } = await buildProject(db, owner.id);
    const viewer = await buildMember(db, { projectId: project.id }, 'viewer');
    const refused = await api(t, viewer.cookie).upload(
      { path: wav },
      { project_id: project.id, branch_id: branch.id, commit_message: 'Mine' },
    );
    expect(refused.statusCode).toBe(403);
    const notAudio = await api(t, owner.cookie).upload(
      { content: Buffer.from('not audio at all'), name: 'x.wav' },
      { project_id: project.id, branch_id: branch.id, commit_message: 'Junk' },
    );
    expect(notAudio.statusCode).toBe(415);
    expect(await kinds(project.id)).toEqual([]);
  });

  it('create-from-URL records version.uploaded; a failed processing records version.failed once, by Takes when the uploader is unknown', async () => {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia' });
    const { project, branch } = await buildProject(db, owner.id);
    const created = await api(t, owner.cookie).post('/api/versions/create', {
      project_id: project.id,
      branch_id: branch.id,
      message: 'From a link',
      file_url: 'https://example.com/mix.mp3',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await kinds(project.id)).toEqual(['version.uploaded']);

    // A version whose stored original is gone fails on its last attempt.
    const broken = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { overrides: { original_key: 'originals/missing', original_format: 'wav' } },
    );
    const deps = {
      storage: t.deps.storage,
      db,
      media: t.deps.media,
      clock: t.deps.clock,
      tmpDir: t.deps.tmpDir,
      mediaTimeoutMs: t.deps.config.media.timeoutMs,
      activity: t.services.activity,
    };
    const context = {
      jobId: 'j',
      attempt: 3,
      signal: new AbortController().signal,
      logger: silent,
    };
    await processVersion(deps, broken.id, context);
    await processVersion(deps, broken.id, context);
    expect(await kinds(project.id)).toEqual(['version.uploaded', 'version.failed']);
    const row = await db
      .selectFrom('activity')
      .selectAll()
      .where('kind', '=', 'version.failed')
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ actor_id: null, actor_name: 'Takes', target_id: broken.id });
    const page = (
      await api(t, owner.cookie).get(`/api/projects/${project.id}/activity`)
    ).json<ActivityPage>();
    expect(page.items[0]?.summary).toBe('Processing failed for Version 2 on main');
  });
});
