import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_MESSAGES } from '@takes/contract';
import { api } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const NEED_EDITOR = MEMBER_MESSAGES.needRole('editor');

function expectError(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(message);
}

describe('versions and uploads: what each role may do', () => {
  let t: TestApp;
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-version-roles-'));
    wav = await makeAudio(dir, 'wav', 1, 'Second Take.wav');
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A project with a processed version 1, one member of each role and a stranger. */
  async function team() {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(db, owner.id, { name: 'Night Drive' });
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true },
    );
    const target = { projectId: project.id };
    const people = {
      owner,
      editor: await buildMember(db, target, 'editor'),
      commenter: await buildMember(db, target, 'commenter'),
      viewer: await buildMember(db, target, 'viewer'),
      stranger: await buildUser(db),
    };
    const as = (who: keyof typeof people) => api(t, people[who].cookie);
    return { project, branch, version, people, as };
  }

  it('lets every member read, play and download; a stranger gets 404 everywhere', async () => {
    const { project, branch, version, as } = await team();
    for (const role of ['owner', 'editor', 'commenter', 'viewer'] as const) {
      const who = as(role);
      const got = await who.get(`/api/versions/${version.id}`);
      expect(got.statusCode, got.body).toBe(200);
      expect(got.json()).toMatchObject({
        id: version.id,
        project: { id: project.id, name: 'Night Drive', role, listed: false },
      });
      const listed = await who.get(`/api/versions/project/${project.id}/branch/${branch.id}`);
      expect(listed.json<{ id: string }[]>().map((v) => v.id)).toEqual([version.id]);
      expect((await who.get(`/api/versions/${version.id}/processing`)).statusCode).toBe(200);
      expect((await who.get(`/api/versions/${version.id}/qualities`)).json()).toMatchObject({
        available: ['original', 'high', 'standard'],
      });
      for (const quality of ['original', 'high', 'standard']) {
        const stream = await who.get(`/api/versions/${version.id}/stream?quality=${quality}`, {
          range: 'bytes=0-3',
        });
        expect(stream.statusCode, stream.body).toBe(206);
      }
      expect((await who.get(`/api/versions/${version.id}/peaks`)).statusCode).toBe(200);
      const download = await who.get(`/api/versions/${version.id}/download`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    }
    const stranger = as('stranger');
    for (const url of [
      `/api/versions/${version.id}`,
      `/api/versions/${version.id}/processing`,
      `/api/versions/${version.id}/qualities`,
      `/api/versions/${version.id}/stream`,
      `/api/versions/${version.id}/peaks`,
      `/api/versions/${version.id}/download`,
    ])
      expectError(await stranger.get(url), 404, 'Version not found');
    expectError(
      await stranger.get(`/api/versions/project/${project.id}/branch/${branch.id}`),
      404,
      'Branch not found',
    );
  });

  it('lets an editor upload version 2 through the multipart route into the owner’s project', async () => {
    const { project, branch, people, as } = await team();
    const fields = {
      project_id: project.id,
      branch_id: branch.id,
      commit_message: 'Louder vocals',
    };

    for (const role of ['commenter', 'viewer'] as const)
      expectError(await as(role).upload({ path: wav }, fields), 403, NEED_EDITOR);
    expectError(
      await as('stranger').upload({ path: wav }, fields),
      404,
      'Project or branch not found',
    );
    // A branch the editor may upload to, but named under another project: not found.
    const elsewhere = await buildProject(t.deps.database.db, people.editor.id);
    expectError(
      await as('editor').upload(
        { path: wav },
        { ...fields, project_id: elsewhere.project.id, branch_id: branch.id },
      ),
      404,
      'Project or branch not found',
    );

    const uploaded = await as('editor').upload({ path: wav }, fields);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { version_id: versionId, project_id: projectId } = uploaded.json<{
      version_id: string;
      project_id: string;
    }>();
    expect(projectId).toBe(project.id);
    const owner = as('owner');
    expect((await owner.get(`/api/versions/${versionId}`)).json()).toMatchObject({
      version_number: 2,
      message: 'Louder vocals',
      project: { id: project.id, owner_id: people.owner.id, role: 'owner' },
    });
    expect((await owner.get(`/api/projects/${project.id}`)).json()).toMatchObject({
      owner_id: people.owner.id,
      branches: [{ id: branch.id, version_count: 2 }],
    });
    // The refused uploads left nothing behind.
    const rows = await t.deps.database.db
      .selectFrom('versions')
      .select('version_number')
      .where('branch_id', '=', branch.id)
      .execute();
    expect(rows.map((r) => r.version_number).sort()).toEqual([1, 2]);
  }, 60_000);

  it('lets an editor add a version from a URL and delete versions; lower roles get 403', async () => {
    const { project, branch, version, as } = await team();
    const body = {
      project_id: project.id,
      branch_id: branch.id,
      message: 'Mix from the studio',
      file_url: 'https://example.com/mix.mp3',
    };
    for (const role of ['commenter', 'viewer'] as const) {
      expectError(await as(role).post('/api/versions/create', body), 403, NEED_EDITOR);
      expectError(await as(role).delete(`/api/versions/${version.id}`), 403, NEED_EDITOR);
    }
    expectError(
      await as('stranger').post('/api/versions/create', body),
      404,
      'Project or branch not found',
    );
    expectError(
      await as('stranger').delete(`/api/versions/${version.id}`),
      404,
      'Version not found',
    );

    const created = await as('editor').post('/api/versions/create', body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ version_number: 2, project_id: project.id });
    expect((await as('editor').delete(`/api/versions/${version.id}`)).statusCode).toBe(204);
    expectError(await as('viewer').get(`/api/versions/${version.id}`), 404, 'Version not found');
  });

  it("includes shared projects' versions in the recent list, and drops them once removed", async () => {
    const { project, version, people, as } = await team();
    const recent = (await as('viewer').get('/api/versions/recent')).json<
      { id: string; project_id: string; title: string }[]
    >();
    expect(recent).toEqual([
      expect.objectContaining({
        id: version.id,
        project_id: project.id,
        title: 'Night Drive - Version 1',
      }),
    ]);
    expect((await as('stranger').get('/api/versions/recent')).json()).toEqual([]);
    await t.deps.database.db
      .deleteFrom('project_members')
      .where('user_id', '=', people.viewer.id)
      .execute();
    expect((await as('viewer').get('/api/versions/recent')).json()).toEqual([]);
  });

  it("reads a Range request's cookie session and version in one statement, with the guard's answers", async () => {
    const { version, people, as } = await team();
    const db = t.deps.database.db;
    const url = `/api/versions/${version.id}/stream?quality=standard`;
    const range = { range: 'bytes=0-99' };
    // Statements of the compiled-once queries (the session, the access checks) go through here.
    const statements: string[] = [];
    const executeQuery = db.executeQuery.bind(db);
    db.executeQuery = ((query: CompiledQuery) => {
      statements.push(query.sql);
      return executeQuery(query);
    }) as typeof db.executeQuery;
    try {
      const played = await as('viewer').get(url, range);
      expect(played.statusCode, played.body).toBe(206);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/from "sessions".*join "versions"/s);

      // A missing version (signed in): 404; a stranger: 404; a forged cookie: 401.
      expectError(
        await as('viewer').get(`/api/versions/${version.id.replace(/.$/, '0')}0/stream`, range),
        404,
        'Version not found',
      );
      expectError(await as('stranger').get(url, range), 404, 'Version not found');
      const forged = people.viewer.cookie.replace(
        /session_token=(.)/,
        (_m, c: string) => `session_token=${c === 'a' ? 'b' : 'a'}`,
      );
      expectError(await api(t, forged).get(url, range), 401, 'Not authenticated');

      // A session due for renewal goes to better-auth (which renews it) and still plays.
      const DAY = 24 * 60 * 60 * 1000;
      await db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() + 28 * DAY).toISOString() })
        .where('user_id', '=', people.commenter.id)
        .execute();
      const renewed = await as('commenter').get(url, range);
      expect(renewed.statusCode, renewed.body).toBe(206);
      const row = await db
        .selectFrom('sessions')
        .select('expires_at')
        .where('user_id', '=', people.commenter.id)
        .executeTakeFirstOrThrow();
      expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * DAY);

      // Signed out (the session row gone): the next Range request is refused.
      await db.deleteFrom('sessions').where('user_id', '=', people.viewer.id).execute();
      expectError(await as('viewer').get(url, range), 401, 'Not authenticated');
    } finally {
      db.executeQuery = executeQuery;
    }
  });

  it("refuses a removed member's next Range request on an open stream (no cached grant)", async () => {
    const { version, people, as } = await team();
    const listener = as('commenter');
    const first = await listener.get(`/api/versions/${version.id}/stream?quality=standard`, {
      range: 'bytes=0-99',
    });
    expect(first.statusCode, first.body).toBe(206);
    expect(first.headers['content-range']).toMatch(/^bytes 0-99\//);

    await t.deps.database.db
      .deleteFrom('project_members')
      .where('user_id', '=', people.commenter.id)
      .execute();

    const next = await listener.get(`/api/versions/${version.id}/stream?quality=standard`, {
      range: 'bytes=100-199',
    });
    expectError(next, 404, 'Version not found');
    // A role change takes effect on the next request too: a viewer cannot delete.
    await t.deps.database.db
      .updateTable('project_members')
      .set({ role: 'viewer' })
      .where('user_id', '=', people.editor.id)
      .execute();
    expectError(await as('editor').delete(`/api/versions/${version.id}`), 403, NEED_EDITOR);
  });
});
