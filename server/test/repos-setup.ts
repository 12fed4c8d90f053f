import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Bounce, PublishResponse } from '@takes/contract';
import { api } from './api';
import { makeAudio } from './audio-fixtures';
import { buildRepo, buildUser } from './factories';
import { createTestApp, TestClock, type TestApp } from './test-app';

/**
 * What the repository and bounce database tests share: an app on a clock they move, a signed-in
 * owner and stranger, the three audio files they publish, and the publish flow over HTTP.
 */

export type Client = ReturnType<typeof api>;

export interface AudioFiles {
  dir: string;
  wavA: string;
  wavB: string;
  mp3: string;
}

/** Two WAVs (2 s and 3 s) and an MP3, made once per test file. */
export async function makeRepoAudio(): Promise<AudioFiles> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-repos-'));
  return {
    dir,
    wavA: await makeAudio(dir, 'wav', 2, 'Mix A.wav'),
    wavB: await makeAudio(dir, 'wav', 3, 'Mix B.wav'),
    mp3: await makeAudio(dir, 'mp3', 2, 'Rough.mp3'),
  };
}

export interface RepoTestContext {
  t: TestApp;
  clock: TestClock;
  ownerId: string;
  ownerCookie: string;
  owner: Client;
  stranger: Client;
}

/** A test app with an owner and a stranger signed in (rows made directly, not over HTTP). */
export async function setupRepoTest(
  options: { uploadMaxBytes?: number } = {},
): Promise<RepoTestContext> {
  const clock = new TestClock();
  const t = await createTestApp({ ...options, clock });
  const owner = await buildUser(t.deps.database.db);
  const stranger = await buildUser(t.deps.database.db);
  return {
    t,
    clock,
    ownerId: owner.id,
    ownerCookie: owner.cookie,
    owner: api(t, owner.cookie),
    stranger: api(t, stranger.cookie),
  };
}

/** The owner's repository "Night Drive" (or `name`), made directly. */
export async function nightDrive(c: RepoTestContext, name = 'Night Drive') {
  return buildRepo(c.t.deps.database.db, c.ownerId, { name });
}

/** Step 2 of a publish: PUT the bytes to the upload URL with its token (if any). */
export function putUpload(t: TestApp, url: string, body: Buffer | Readable, token?: string) {
  return t.app.inject({
    method: 'PUT',
    url: new URL(url).pathname,
    payload: body,
    headers: {
      'content-type': 'application/octet-stream',
      ...(token === undefined ? {} : { 'x-upsert-token': token }),
    },
  });
}

/** The whole publish over HTTP (publish, PUT, complete), each step checked. */
export async function publishFile(
  t: TestApp,
  client: Client,
  repoId: string,
  file: string,
  extra: { branch?: string; commitSha?: string; title?: string } = {},
): Promise<Bounce> {
  const branch = extra.branch ?? 'main';
  const filename = path.basename(file);
  const started = await client.post('/api/bounces/publish', {
    repo_id: repoId,
    branch,
    filename,
    content_type: 'audio/wav',
    ...(extra.commitSha ? { commit_sha: extra.commitSha } : {}),
  });
  expect(started.statusCode, started.body).toBe(201);
  const publish = started.json<PublishResponse>();
  const content = fs.readFileSync(file);
  const uploaded = await putUpload(t, publish.upload_url, content, publish.upload_token);
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const completed = await client.post('/api/bounces/complete', {
    repo_id: repoId,
    branch,
    filename,
    title: extra.title,
    mime: 'audio/wav',
    size: content.length,
    upload_id: publish.upload_id,
  });
  expect(completed.statusCode, completed.body).toBe(201);
  return completed.json<{ bounce: Bounce }>().bounce;
}

/** The keys stored under `prefix`. */
export async function objectKeys(t: TestApp, prefix: string): Promise<string[]> {
  return (await t.deps.storage.list(prefix)).map((o) => o.key);
}

/**
 * The audio files of one test file: made before its tests, removed after them. The object is
 * filled in by the time a test runs.
 */
export function useRepoAudio(): AudioFiles {
  const audio = {} as AudioFiles;
  beforeAll(async () => {
    Object.assign(audio, await makeRepoAudio());
  });
  afterAll(() => fs.rmSync(audio.dir, { recursive: true, force: true }));
  return audio;
}
