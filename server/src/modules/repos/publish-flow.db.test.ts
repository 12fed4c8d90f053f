import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  endpoints,
  publishBounceFile,
  PublishStepError,
  uploadWith,
} from '@takes/contract';
import { client, eventually, newUser } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';

let dir: string;
let wav: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-publish-flow-'));
  wav = await makeAudio(dir, 'wav', 2, 'Mix A.wav');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The contract's one publish flow (publish, upload with the token, complete), which the web app,
// the CLI and the end-to-end tests share, against the real routes.
describe('publishBounceFile', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('publishes a WAV as a bounce on the branch head, which then processes', async () => {
    t = await createTestApp();
    const owner = client(t, await newUser(t));
    const { repo } = await owner.call(endpoints.repos.createRepo, {
      body: { name: 'Night Drive' },
    });
    const { commit } = await owner.call(endpoints.repos.createRepoCommit, {
      params: { id: repo.id },
      body: { branch: 'main', message: 'First mix' },
    });
    const content = fs.readFileSync(wav);

    const bounce = await publishBounceFile(owner, {
      target: {
        repo_id: repo.id,
        branch: 'main',
        filename: 'Mix A.wav',
        content_type: 'audio/wav',
        size: content.length,
      },
      title: 'First mix',
      upload: uploadWith(owner, new Uint8Array(content)),
    });
    expect(bounce).toMatchObject({
      title: 'First mix',
      branch: 'main',
      commit_sha: commit.sha,
      mime: 'audio/wav',
      status: 'processing',
    });

    const params = { id: repo.id, bounceId: bounce.id };
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await owner.call(endpoints.repos.getBounce, { params })).bounce.status === 'completed',
    );
    const { bounces } = await owner.call(endpoints.repos.listRepoBounces, {
      params: { id: repo.id },
    });
    expect(bounces.map((b) => b.id)).toEqual([bounce.id]);
  });

  it('names the step that failed: a repository that is not there fails the publish step', async () => {
    t = await createTestApp();
    const owner = client(t, await newUser(t));
    let uploaded = false;
    const failed = await publishBounceFile(owner, {
      target: { repo_id: 'no-such-repo', branch: 'main', filename: 'Mix A.wav' },
      upload: () => {
        uploaded = true;
        return Promise.resolve();
      },
    }).catch((error: unknown) => error);

    expect(failed).toBeInstanceOf(PublishStepError);
    const stepError = failed as PublishStepError;
    expect(stepError.step).toBe('publish');
    expect(stepError.cause).toBeInstanceOf(ApiError);
    expect((stepError.cause as ApiError).status).toBe(404);
    expect(stepError.message).toBe((stepError.cause as ApiError).message);
    expect(uploaded).toBe(false);
  });

  it('names the upload step when the file is not audio, and completes nothing', async () => {
    t = await createTestApp();
    const owner = client(t, await newUser(t));
    const { repo } = await owner.call(endpoints.repos.createRepo, { body: { name: 'Lyrics' } });
    const failed = await publishBounceFile(owner, {
      target: { repo_id: repo.id, branch: 'main', filename: 'notes.wav' },
      upload: uploadWith(owner, 'These are lyrics, not audio.\n'.repeat(100)),
    }).catch((error: unknown) => error);

    expect(failed).toBeInstanceOf(PublishStepError);
    expect((failed as PublishStepError).step).toBe('upload');
    expect(((failed as PublishStepError).cause as ApiError).status).toBe(415);
    const { bounces } = await owner.call(endpoints.repos.listRepoBounces, {
      params: { id: repo.id },
    });
    expect(bounces).toEqual([]);
  });
});
