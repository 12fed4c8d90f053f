import { AccessPolicy } from '../src/modules/access';
import { AccessRepo } from '../src/modules/access/access.repo';
import fs from 'node:fs';
import { expect } from 'vitest';
import type { PublishResponse } from '@takes/contract';
import type { EmbeddedJobQueue } from '../src/jobs/embedded';
import { api } from './api';
import { buildUser } from './factories';
import { createTestApp, type TestApp } from './test-app';
import { ProjectsRepo } from '../src/modules/projects/projects.repo';
import { ProjectsService } from '../src/modules/projects/projects.service';
import { UploadService } from '../src/modules/versions/upload.service';
import { VersionsRepo } from '../src/modules/versions/versions.repo';
import { VersionsService } from '../src/modules/versions/versions.service';

/**
 * What the stored-audio database tests share: an app with a signed-in owner, running its jobs
 * in this process, and uploading or publishing one file over HTTP (the paths under test).
 */

export type Client = ReturnType<typeof api>;

export async function setupStoredAudio(): Promise<{ t: TestApp; owner: Client; ownerId: string }> {
  const t = await createTestApp();
  const user = await buildUser(t.deps.database.db);
  return { t, owner: api(t, user.cookie), ownerId: user.id };
}

/** Runs every due job (processing, clean-up) to the end, in this process. */
export async function runJobs(t: TestApp): Promise<void> {
  const queue = t.deps.jobs as EmbeddedJobQueue;
  while (await queue.runOnce()) {
    /* next */
  }
}

export async function exists(t: TestApp, key: string): Promise<boolean> {
  return (await t.deps.storage.head(key)) !== null;
}

/** Uploads `file` as a new version over HTTP; with its stored original's key and owner. */
export async function uploadVersion(
  t: TestApp,
  owner: Client,
  file: string,
  fields: Record<string, string> = {},
) {
  const response = await owner.upload({ path: file }, fields);
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json<{ version_id: string; project_id: string; branch_id: string }>();
  const row = await t.deps.database.db
    .selectFrom('versions')
    .innerJoin('projects', 'projects.id', 'versions.project_id')
    .select(['versions.original_key', 'projects.owner_id'])
    .where('versions.id', '=', body.version_id)
    .executeTakeFirstOrThrow();
  return { ...body, key: row.original_key as string, ownerId: row.owner_id };
}

/** Publish and PUT of `file` on `main` (not completed: a pending bounce upload). */
export async function publishUpload(
  t: TestApp,
  owner: Client,
  repoId: string,
  file: string,
): Promise<PublishResponse> {
  const started = await owner.post('/api/bounces/publish', {
    repo_id: repoId,
    branch: 'main',
    filename: 'Shared Take.wav',
    content_type: 'audio/wav',
  });
  expect(started.statusCode, started.body).toBe(201);
  const publish = started.json<PublishResponse>();
  const put = await t.app.inject({
    method: 'PUT',
    url: new URL(publish.upload_url).pathname,
    payload: fs.readFileSync(file),
    headers: {
      'content-type': 'application/octet-stream',
      'x-upsert-token': publish.upload_token,
    },
  });
  expect(put.statusCode, put.body).toBe(200);
  return publish;
}

export async function completeUpload(owner: Client, repoId: string, uploadId: string) {
  return owner.post('/api/bounces/complete', {
    repo_id: repoId,
    branch: 'main',
    filename: 'Shared Take.wav',
    mime: 'audio/wav',
    upload_id: uploadId,
  });
}

/** An UploadService on the app's own adapters, with a hook at the dangerous moment. */
export function uploadsWith(
  t: TestApp,
  afterOriginalStored: (key: string) => Promise<void>,
): UploadService {
  const { db } = t.deps.database;
  const access = new AccessPolicy(new AccessRepo(db));
  const projects: ProjectsService = new ProjectsService({
    access,
    repo: new ProjectsRepo(db),
    clock: t.deps.clock,
    jobs: t.deps.jobs,
    activity: t.services.activity,
    versions: () => versions,
  });
  const versions = new VersionsService({
    access,
    repo: new VersionsRepo(db),
    clock: t.deps.clock,
    jobs: t.deps.jobs,
    projects,
    activity: t.services.activity,
  });
  return new UploadService({
    access,
    db,
    repo: new VersionsRepo(db),
    storage: t.deps.storage,
    jobs: t.deps.jobs,
    media: t.deps.media,
    clock: t.deps.clock,
    tmpDir: t.deps.tmpDir,
    mediaTimeoutMs: t.deps.config.media.timeoutMs,
    projects,
    activity: t.services.activity,
    quotas: t.services.quotas,
    afterOriginalStored,
  });
}
