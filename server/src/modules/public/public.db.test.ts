import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicProject } from '@takes/contract';
import { api } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { storageKeys } from '../audio';

/** Bytes the test writes as a version's standard rendition, to tell it from the original. */
const STANDARD = Buffer.from('ID3-standard-rendition-bytes-0123456789');

describe('Public projects: the read-only page and its stream, for anyone', () => {
  let t: TestApp;
  let dir: string;
  let web: string;
  let wav: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-public-'));
    web = path.join(dir, 'web');
    fs.mkdirSync(web);
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    wav = await makeAudio(dir, 'wav', 1, 'Original Name.wav');
    t = await createTestApp({ webDistDir: web });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const anonymous = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  /** A project with a processed version whose standard rendition holds STANDARD. */
  async function publicProject(options: { isPrivate?: boolean } = {}) {
    const db = t.deps.database.db;
    const owner: BuiltUser = await buildUser(db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(db, owner.id, {
      name: 'Night Drive',
      description: 'Late-night synth track',
      is_private: options.isPrivate ? 1 : 0,
    });
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true, overrides: { message: 'First take', tags: '["secret"]' } },
    );
    const key = storageKeys.rendition(version.id, 'standard');
    await t.deps.storage.put(key, Readable.from([STANDARD]));
    const sha256 = createHash('sha256').update(STANDARD).digest('hex');
    const renditions = JSON.parse(version.renditions) as Record<string, object>;
    await db
      .updateTable('versions')
      .set({
        renditions: JSON.stringify({
          ...renditions,
          standard: { key, size: STANDARD.length, sha256 },
        }),
      })
      .where('id', '=', version.id)
      .execute();
    return { owner, project, branch, version, etag: `"${sha256}"`, owners: api(t, owner.cookie) };
  }

  it('shows a Public project signed out: name, description, owner, branches and versions only', async () => {
    const { project, branch, version, owners } = await publicProject();
    const db = t.deps.database.db;
    const second = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { overrides: { message: null } },
    );
    const acoustic = await owners.post(`/api/projects/${project.id}/branches`, {
      name: 'acoustic',
    });
    expect(acoustic.statusCode, acoustic.body).toBe(201);
    const acousticId = acoustic.json<{ id: string }>().id;
    // A comment and a link exist; the public page shows neither.
    await owners.post(`/api/versions/${version.id}/comments`, { content: 'Private note' });
    await owners.post(`/api/versions/${version.id}/links`, {});
    const updatedAt = (
      await db
        .selectFrom('projects')
        .select('updated_at')
        .where('id', '=', project.id)
        .executeTakeFirstOrThrow()
    ).updated_at;

    const page = await anonymous(`/api/public/projects/${project.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.json<PublicProject>()).toEqual({
      id: project.id,
      name: 'Night Drive',
      description: 'Late-night synth track',
      owner_name: 'Olivia Owner',
      listed: false,
      updated_at: updatedAt,
      branches: [
        {
          id: branch.id,
          name: 'main',
          is_default: true,
          versions: [
            {
              id: second.id,
              version_number: 2,
              message: null,
              created_at: second.created_at,
              status: 'processing',
              waveform_data: null,
            },
            {
              id: version.id,
              version_number: 1,
              message: 'First take',
              created_at: version.created_at,
              status: 'completed',
              waveform_data: { peaks: expect.any(Array) as unknown, duration: 2 },
            },
          ],
        },
        { id: acousticId, name: 'acoustic', is_default: false, versions: [] },
      ],
    });
    // The owner's display name wins over the account name.
    await db
      .insertInto('profiles')
      .values({
        user_id: project.owner_id,
        display_name: 'DJ Olivia',
        avatar_key: null,
        updated_at: new Date().toISOString(),
      })
      .execute();
    expect((await anonymous(`/api/public/projects/${project.id}`)).json()).toMatchObject({
      owner_name: 'DJ Olivia',
    });
  });

  it('answers a private or missing project with 404, and follows privacy on the next request', async () => {
    const { project, version, owners } = await publicProject({ isPrivate: true });
    const page = `/api/public/projects/${project.id}`;
    const audio = `/api/public/versions/${version.id}/audio`;
    const missing = await anonymous('/api/public/projects/00000000-0000-0000-0000-000000000000');
    expect(missing.statusCode).toBe(404);
    for (const [url, message] of [
      [page, 'Project not found'],
      [audio, 'Version not found'],
    ] as const) {
      const refused = await anonymous(url);
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json()).toEqual({ error: message, code: 'not_found' });
      expect(refused.headers['x-robots-tag']).toBe('noindex');
    }
    expect((await anonymous(page)).json()).toEqual(missing.json());
    // A member signed in gets no more through the public routes than anyone.
    const member = await buildMember(t.deps.database.db, { projectId: project.id }, 'viewer');
    expect((await api(t, member.cookie).get(page)).statusCode).toBe(404);

    expect((await owners.post(`/api/projects/${project.id}/toggle-privacy`)).json()).toMatchObject({
      is_private: false,
    });
    expect((await anonymous(page)).statusCode).toBe(200);
    expect((await anonymous(audio, { range: 'bytes=0-3' })).statusCode).toBe(206);

    expect((await owners.post(`/api/projects/${project.id}/toggle-privacy`)).json()).toMatchObject({
      is_private: true,
    });
    expect((await anonymous(page)).statusCode).toBe(404);
    expect((await anonymous(audio, { range: 'bytes=4-7' })).statusCode).toBe(404);
  });

  it('streams the standard rendition only, with ranges, ETag and 304', async () => {
    const { version, etag } = await publicProject();
    const audio = `/api/public/versions/${version.id}/audio`;
    const whole = await anonymous(audio);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(whole.rawPayload.equals(STANDARD)).toBe(true);
    expect(whole.headers.etag).toBe(etag);
    expect(whole.headers['x-robots-tag']).toBe('noindex');
    expect(whole.headers['accept-ranges']).toBe('bytes');

    // Asking for another quality changes nothing: the original never leaves through here.
    for (const quality of ['original', 'high', 'lossless']) {
      const asked = await anonymous(`${audio}?quality=${quality}`);
      expect(asked.statusCode, quality).toBe(200);
      expect(asked.rawPayload.equals(STANDARD), quality).toBe(true);
    }

    const part = await anonymous(audio, { range: 'bytes=4-11' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${STANDARD.length}`);
    expect(part.rawPayload.equals(STANDARD.subarray(4, 12))).toBe(true);

    const unchanged = await anonymous(audio, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload.length).toBe(0);
  });

  it('asks to retry while the standard rendition is being made, and 404s when it never will be', async () => {
    const { project, branch } = await publicProject();
    const processing = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav },
    );
    const waiting = await anonymous(`/api/public/versions/${processing.id}/audio`);
    expect(waiting.statusCode).toBe(409);
    expect(waiting.headers['retry-after']).toBe('5');
    expect(waiting.json()).toEqual({
      error: 'This version is still being processed. Please try again in a moment.',
      code: 'version_processing',
    });
    const failed = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, overrides: { status: 'failed', error: 'Broken file' } },
    );
    const never = await anonymous(`/api/public/versions/${failed.id}/audio`);
    expect(never.statusCode).toBe(404);
    expect(never.json()).toEqual({ error: 'This quality is not available', code: 'not_found' });
  });

  it('sends noindex on the API answers unless the owner listed the project', async () => {
    const { project, version, owners } = await publicProject();
    const page = `/api/public/projects/${project.id}`;
    const audio = `/api/public/versions/${version.id}/audio`;
    expect((await anonymous(page)).headers['x-robots-tag']).toBe('noindex');

    const listed = await owners.patch(`/api/projects/${project.id}`, { listed: true });
    expect(listed.json()).toMatchObject({ listed: true });
    const indexable = await anonymous(page);
    expect(indexable.json()).toMatchObject({ listed: true });
    expect(indexable.headers['x-robots-tag']).toBeUndefined();
    expect((await anonymous(audio)).headers['x-robots-tag']).toBeUndefined();

    await owners.patch(`/api/projects/${project.id}`, { listed: false });
    expect((await anonymous(page)).headers['x-robots-tag']).toBe('noindex');
    expect((await anonymous(audio)).headers['x-robots-tag']).toBe('noindex');
  });

  it("marks the web app's /projects/:id page noindex unless the project is Public and listed", async () => {
    const { project, owners } = await publicProject({ isPrivate: true });
    const robots = async (url: string) => {
      const html = await anonymous(url);
      expect(html.statusCode, url).toBe(200);
      expect(html.headers['content-type']).toContain('text/html');
      return html.headers['x-robots-tag'];
    };
    const pageUrl = `/projects/${project.id}`;
    expect(await robots(pageUrl)).toBe('noindex');
    // Listed but private: still noindex.
    await owners.patch(`/api/projects/${project.id}`, { listed: true });
    expect(await robots(pageUrl)).toBe('noindex');
    await owners.post(`/api/projects/${project.id}/toggle-privacy`);
    expect(await robots(pageUrl)).toBeUndefined();
    expect(await robots(`${pageUrl}/`)).toBeUndefined();
    expect(await robots(`${pageUrl}?v=2`)).toBeUndefined();
    await owners.patch(`/api/projects/${project.id}`, { listed: false });
    expect(await robots(pageUrl)).toBe('noindex');

    expect(await robots('/projects/00000000-0000-0000-0000-000000000000')).toBe('noindex');
    // Other pages of the app are unchanged.
    expect(await robots('/dashboard')).toBeUndefined();
    expect(await robots('/')).toBeUndefined();
    expect(await robots(`/projects/${project.id}/branches/b/versions/v`)).toBeUndefined();
    expect(await robots('/share/abcdef')).toBe('noindex, nofollow');
    // An invitation's address holds its token: never indexed, never sent on as a referrer.
    expect(await robots('/invite/abcdef')).toBe('noindex, nofollow');
    expect((await anonymous('/invite/abcdef')).headers['referrer-policy']).toBe('no-referrer');
  });
});
