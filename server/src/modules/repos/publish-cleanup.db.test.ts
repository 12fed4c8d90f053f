import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishResponse } from '@takes/contract';
import { eventually } from '../../../test/api';
import { buildProject, buildVersion, depsOf } from '../../../test/factories';
import {
  useRepoAudio,
  nightDrive,
  objectKeys,
  putUpload,
  setupRepoTest,
  type RepoTestContext,
} from '../../../test/repos-setup';

const audio = useRepoAudio();

describe('abandoned publishes are cleaned up', () => {
  let c: RepoTestContext;
  afterEach(async () => {
    await c.t.close();
  });

  it('an abandoned publish leaves nothing behind once its clean-up job has run', async () => {
    c = await setupRepoTest();
    const { t, owner, clock } = c;
    const repo = await nightDrive(c);
    const p = (
      await owner.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    expect(
      (await putUpload(t, p.upload_url, fs.readFileSync(audio.wavA), p.upload_token)).statusCode,
    ).toBe(200);
    expect(await objectKeys(t, 'originals/')).toHaveLength(1);
    const never = (
      await owner.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'never.wav',
      })
    ).json<PublishResponse>();
    expect(never.upload_id).toBeTruthy();

    await t.deps.jobs.startWorking();
    // Not before the token has expired (plus its grace period).
    clock.advance(10 * 60 * 1000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await objectKeys(t, 'originals/')).toHaveLength(1);
    clock.advance(11 * 60 * 1000);
    await eventually(async () => (await objectKeys(t, 'originals/')).length === 0);
    await eventually(
      async () =>
        (await t.deps.database.db.selectFrom('bounce_uploads').selectAll().execute()).length === 0,
    );
  });

  it('keeps a stored original another version still uses when an abandoned publish is cleaned up', async () => {
    c = await setupRepoTest();
    const { t, owner, clock } = c;
    const repo = await nightDrive(c);
    const { project, branch } = await buildProject(t.deps.database.db, c.ownerId);
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: audio.wavA },
    );
    expect(version.original_key).toMatch(/^originals\//);
    const p = (
      await owner.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
      })
    ).json<PublishResponse>();
    await putUpload(t, p.upload_url, fs.readFileSync(audio.wavA), p.upload_token);
    clock.advance(21 * 60 * 1000);
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await t.deps.database.db.selectFrom('bounce_uploads').selectAll().execute()).length === 0,
    );
    expect(await objectKeys(t, 'originals/')).toHaveLength(1);
  });
});
