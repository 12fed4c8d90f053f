import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import type { PublishResponse, SessionResponse } from '@takes/contract';
import type { VersionsTable } from '../src/db/schema';
import { api, ORIGIN } from './api';
import { makeAudio } from './audio-fixtures';
import { cookiesFrom, type TestApp } from './test-app';

type Client = ReturnType<typeof api>;

/** Two short WAV files for a test file's uploads, made once before its tests and removed after. */
export function demoAudio() {
  let dir: string | undefined;
  const files = { oneSecond: '', twoSeconds: '' };
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-demo-'));
    files.oneSecond = await makeAudio(dir, 'wav', 1, 'one.wav');
    files.twoSeconds = await makeAudio(dir, 'wav', 2, 'two.wav');
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return files;
}

/**
 * What the demo account tests do over and over: start a demo, read what it has, publish a
 * bounce through the three steps. `app` is read at call time (each test starts its own).
 */
export function demoHelpers(app: () => TestApp) {
  async function startDemo(remoteAddress = '127.0.0.1') {
    const response = await app().app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: ORIGIN },
      remoteAddress,
    });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = cookiesFrom(response.headers['set-cookie']);
    return { client: api(app(), cookie), cookie, session: response.json<SessionResponse>() };
  }

  async function projectsOf(client: Client) {
    return (await client.get('/api/projects')).json<
      { id: string; name: string; branches: { name: string; version_count: number }[] }[]
    >();
  }

  async function versionsOf(userId: string): Promise<VersionsTable[]> {
    return app()
      .deps.database.db.selectFrom('versions')
      .innerJoin('projects', 'projects.id', 'versions.project_id')
      .selectAll('versions')
      .where('projects.owner_id', '=', userId)
      .execute();
  }

  async function uploadsUsed(userId: string): Promise<number | undefined> {
    const row = await app()
      .deps.database.db.selectFrom('demo_accounts')
      .select('uploads_used')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.uploads_used;
  }

  async function publishBounce(client: Client, repoId: string, file: string) {
    const started = await client.post('/api/bounces/publish', {
      repo_id: repoId,
      branch: 'main',
      filename: path.basename(file),
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    const content = fs.readFileSync(file);
    const put = await app().app.inject({
      method: 'PUT',
      url: new URL(publish.upload_url).pathname,
      payload: content,
      headers: { 'content-type': 'audio/wav', 'x-upsert-token': publish.upload_token },
    });
    expect(put.statusCode, put.body).toBe(200);
    const completed = await client.post('/api/bounces/complete', {
      repo_id: repoId,
      branch: 'main',
      filename: path.basename(file),
      upload_id: publish.upload_id,
    });
    expect(completed.statusCode, completed.body).toBe(201);
    return completed.json<{ bounce: { id: string } }>().bounce;
  }

  /** A body made as it is read, so a test can see how much of it the server took. */
  function lazyBody(head: Buffer, bytes: number, tail: Buffer) {
    const chunk = Buffer.alloc(64 * 1024, 7);
    let produced = 0;
    let headSent = false;
    const stream = new Readable({
      read() {
        if (!headSent) {
          headSent = true;
          this.push(head);
        } else if (produced < bytes) {
          const next = chunk.subarray(0, Math.min(chunk.length, bytes - produced));
          produced += next.length;
          this.push(next);
        } else {
          this.push(tail);
          this.push(null);
        }
      },
    });
    return { stream, produced: () => produced };
  }

  return { startDemo, projectsOf, versionsOf, uploadsUsed, publishBounce, lazyBody };
}
