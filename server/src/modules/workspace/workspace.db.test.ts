import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { signInByCode } from '../../../test/admin';
import { api, newUser } from '../../../test/api';
import { startTestSmtp } from '../../../test/smtp';
import { SmtpMailer } from '../../mail/mailer';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';

describe('dashboard stats, search and debug', () => {
  let t: TestApp;
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-ws-'));
    wav = await makeAudio(dir, 'wav', 1, 'Night Drive.wav');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await t.close();
  });

  it('counts projects, branches and the versions of the last 30 days', async () => {
    t = await createTestApp();
    const owner = api(t, await newUser(t));
    expect((await owner.get('/api/stats')).json()).toEqual({
      projects: 0,
      tracks: 0,
      last_update: null,
      versions_last_month: 0,
      activity_last_month: 0,
    });
    const track = (await owner.upload({ path: wav }, {})).json<{ project_id: string }>();
    await owner.post(`/api/projects/${track.project_id}/branches`, { name: 'alt' });
    await owner.post('/api/projects', { name: 'Empty' });
    const stats = (await owner.get('/api/stats')).json<{
      projects: number;
      tracks: number;
      last_update: string;
      versions_last_month: number;
    }>();
    expect(stats).toMatchObject({ projects: 2, tracks: 3, versions_last_month: 1 });
    expect(Date.parse(stats.last_update)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('finds the caller’s projects, branches and versions by name, message and tag, and nobody else’s', async () => {
    t = await createTestApp();
    const owner = api(t, await newUser(t));
    const stranger = api(t, await newUser(t, 'stranger'));
    const track = (
      await owner.upload({ path: wav }, { tags: JSON.stringify(['synthwave', '100%']) })
    ).json<{ project_id: string; branch_id: string; version_id: string }>();
    await owner.upload(
      { path: wav },
      { project_id: track.project_id, branch_id: track.branch_id, commit_message: 'Louder chorus' },
    );
    await owner.post(`/api/projects/${track.project_id}/branches`, { name: 'drive-remix' });

    const byTag = (await owner.get('/api/search?q=SYNTHWAVE')).json<{
      versions: { id: string; tags: string[] }[];
    }>();
    expect(byTag.versions.map((v) => v.id)).toEqual([track.version_id]);
    expect(byTag.versions[0]?.tags).toEqual(['synthwave', '100%']);
    const all = (await owner.get('/api/search?q=drive')).json<{
      projects: { name: string }[];
      branches: { name: string }[];
    }>();
    expect(all.projects.map((p) => p.name)).toEqual(['Night Drive']);
    expect(all.branches.map((b) => b.name)).toEqual(['drive-remix']);
    expect(
      (await owner.get('/api/search?q=chorus'))
        .json<{ versions: { message: string }[] }>()
        .versions.map((v) => v.message),
    ).toEqual(['Louder chorus']);
    // % is a character to look for, not a wildcard.
    expect(
      (await owner.get('/api/search?q=%25')).json<{ versions: unknown[] }>().versions,
    ).toHaveLength(1);
    expect(
      (await owner.get('/api/search?q=zz%25zz')).json<{ versions: unknown[] }>().versions,
    ).toHaveLength(0);
    expect((await stranger.get('/api/search?q=drive')).json()).toEqual({
      projects: [],
      branches: [],
      versions: [],
    });
    expect((await owner.get('/api/search?q=%20')).statusCode).toBe(400);
  });

  it('keeps search in step with new and deleted versions, newest first, for any text', async () => {
    t = await createTestApp();
    const owner = api(t, await newUser(t));
    const found = async (q: string) =>
      (await owner.get(`/api/search?q=${encodeURIComponent(q)}`))
        .json<{ versions: { id: string; message: string }[] }>()
        .versions.map((v) => v.message);
    const first = (await owner.upload({ path: wav }, { tags: JSON.stringify(['rough']) })).json<{
      project_id: string;
      branch_id: string;
      version_id: string;
    }>();
    const messages = ['Rough "quoted" mix', 'Mix two: louder', 'ab'];
    const ids: string[] = [];
    for (const commitMessage of messages)
      ids.push(
        (
          await owner.upload(
            { path: wav },
            {
              project_id: first.project_id,
              branch_id: first.branch_id,
              commit_message: commitMessage,
            },
          )
        ).json<{ version_id: string }>().version_id,
      );
    // Newest first; case does not matter; quotes and short words are text like any other.
    expect(await found('MIX')).toEqual(['Mix two: louder', 'Rough "quoted" mix']);
    expect(await found('"quoted"')).toEqual(['Rough "quoted" mix']);
    expect(await found('ab')).toEqual(['ab']);
    expect(await found('o: l')).toEqual(['Mix two: louder']);
    expect(await found('mix OR louder')).toEqual([]);
    // A deleted version is no longer found.
    expect((await owner.delete(`/api/versions/${ids[1]}`)).statusCode).toBe(204);
    expect(await found('mix')).toEqual(['Rough "quoted" mix']);
  });

  it('finds project and branch names as they are renamed and deleted, the newest 50 of many', async () => {
    t = await createTestApp();
    const owner = api(t, await newUser(t));
    const stranger = api(t, await newUser(t, 'stranger'));
    const names = async (q: string) => {
      const body = (await owner.get(`/api/search?q=${encodeURIComponent(q)}`)).json<{
        projects: { id: string; name: string }[];
        branches: { id: string; name: string }[];
      }>();
      return {
        projects: body.projects.map((p) => p.name),
        branches: body.branches.map((b) => b.name),
      };
    };
    const made: { id: string; name: string }[] = [];
    for (let n = 1; n <= 55; n++) {
      const name = `Anthem ${String(n).padStart(2, '0')}`;
      made.push({
        id: (await owner.post('/api/projects', { name, is_private: true })).json<{ id: string }>()
          .id,
        name,
      });
    }
    // Someone else's newer matches are skipped over, not counted against the caller's 50.
    for (let n = 1; n <= 5; n++)
      await stranger.post('/api/projects', { name: `Anthem of theirs ${n}`, is_private: true });
    const many = await names('anthem');
    expect(many.projects).toHaveLength(50);
    expect(many.projects).toEqual(
      made
        .slice(5)
        .map((p) => p.name)
        .reverse(),
    );
    // Renamed: found by the new name only; deleted: gone.
    const first = made[54]!;
    expect((await owner.patch(`/api/projects/${first.id}`, { name: 'Ballad' })).statusCode).toBe(
      200,
    );
    expect((await names('ballad')).projects).toEqual(['Ballad']);
    expect((await names('anthem 55')).projects).toEqual([]);
    const branch = (
      await owner.post(`/api/projects/${first.id}/branches`, { name: 'string-section' })
    ).json<{ id: string }>();
    expect((await names('string')).branches).toEqual(['string-section']);
    expect(
      (await owner.patch(`/api/branches/${branch.id}`, { name: 'brass-section' })).statusCode,
    ).toBe(200);
    expect(await names('section')).toEqual({ projects: [], branches: ['brass-section'] });
    expect((await owner.delete(`/api/branches/${branch.id}`)).statusCode).toBe(204);
    expect((await names('section')).branches).toEqual([]);
    expect((await owner.delete(`/api/projects/${first.id}`)).statusCode).toBe(204);
    expect((await names('ballad')).projects).toEqual([]);
  });

  it('reports the server state and round-trips a test project (for an admin)', async () => {
    const smtp = await startTestSmtp();
    onTestFinished(() => smtp.close());
    t = await createTestApp({
      env: { ADMIN_EMAILS: 'owner@example.com' },
      mailer: new SmtpMailer(smtp.url, 'Takes <no-reply@takes.test>'),
    });
    const owner = api(t, await signInByCode(t, smtp, 'owner@example.com'));
    const debug = (await owner.get('/api/debug')).json<{
      database: { dialect: string; latest: string };
      storage: { status: string };
      ffmpeg: { status: string; version: string };
      jobs: { queue: string };
    }>();
    expect(debug).toMatchObject({
      database: { dialect: t.deps.database.dialect },
      storage: { kind: 'local', status: 'ok' },
      ffmpeg: { status: 'ok' },
      jobs: { queue: 'embedded' },
    });
    expect(debug.database.latest).toMatch(/^\d{4}-/);
    const trip = await owner.post('/api/debug/round-trip');
    expect(trip.statusCode).toBe(200);
    expect((await owner.get('/api/projects')).json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/debug' })).statusCode).toBe(401);
  });
});
