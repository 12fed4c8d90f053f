import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareLink } from '@takes/contract';
import { api } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { expectError, visitor } from '../../../test/collection-world';
import { buildProject, buildUser, buildVersion, depsOf } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const LOCKED = { error: 'This link needs a password' };

/** A password on a single-version share link: every route of the link asks for it. */
describe('share link passwords', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-link-password-'));
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function protectedLink(
    body: object = { password: 'correct horse', download_enabled: true },
  ) {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Owner' });
    const { project, branch } = await buildProject(db, owner.id, { name: 'Night Drive' });
    const wav = await makeAudio(dir, 'wav', 1, 'Mix.wav');
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true },
    );
    const as = api(t, owner.cookie);
    const made = await as.post(`/api/versions/${version.id}/links`, body);
    expect(made.statusCode, made.body).toBe(201);
    return { as, version, link: made.json<ShareLink>() };
  }

  async function unlock(v: ReturnType<typeof visitor>, hash: string, password: string) {
    const response = await v.post(`/api/links/hash/${hash}/unlock`, { password });
    expect(response.statusCode, response.body).toBe(204);
    return String(response.headers['set-cookie']).split(';')[0] ?? '';
  }

  it('says only that a password is needed on every route of the link until it is given', async () => {
    const { as, version, link } = await protectedLink();
    expect(link.has_password).toBe(true);
    const listed = (await as.get(`/api/versions/${version.id}/links`)).json<ShareLink[]>();
    expect(listed.find((l) => l.id === link.id)?.has_password).toBe(true);
    expect(JSON.stringify(listed)).not.toMatch(/correct horse|scrypt|password_hash/);

    const anon = visitor(t);
    const base = `/api/links/hash/${link.hash}`;
    for (const url of [
      base,
      `${base}/audio`,
      `${base}/download`,
      `${base}/comments`,
      `/api/events?link=${link.hash}`,
    ]) {
      const response = await anon.get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toEqual(LOCKED);
    }
    for (const [method, url, body] of [
      ['POST', `${base}/comments`, { content: 'Hi', visitor_name: 'Ana' }],
      ['PUT', `${base}/review`, { status: 'approved', visitor_name: 'Ana' }],
    ] as const) {
      const response = await anon.post(url, body, undefined, method);
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toEqual(LOCKED);
    }

    expectError(
      await anon.post(`${base}/unlock`, { password: 'wrong horse' }),
      401,
      'Wrong password',
    );
    const cookie = await unlock(anon, link.hash, 'correct horse');
    expect(cookie).toMatch(/^takes_l_[A-Za-z0-9]+=/);
    const page = await anon.get(base, cookie);
    expect(page.statusCode, page.body).toBe(200);
    expect((await anon.get(`${base}/audio`, cookie)).statusCode).toBe(200);
    expect((await anon.get(`${base}/download`, cookie)).statusCode).toBe(200);
    const comment = await anon.post(
      `${base}/comments`,
      { content: 'Hi', visitor_name: 'Ana' },
      cookie,
    );
    expect(comment.statusCode, comment.body).toBe(201);
    // The cookie is the link's own: another protected link stays locked.
    const other = await protectedLink();
    expect((await anon.get(`/api/links/hash/${other.link.hash}`, cookie)).json()).toEqual(LOCKED);
    // A link without a password needs nothing.
    const plain = await protectedLink({});
    expect(plain.link.has_password).toBe(false);
    expect((await visitor(t).get(`/api/links/hash/${plain.link.hash}`)).statusCode).toBe(200);
  });

  it('refuses the 6th wrong try in 10 minutes per address with 429, even the right one', async () => {
    const { link } = await protectedLink();
    const url = `/api/links/hash/${link.hash}/unlock`;
    const anon = visitor(t);
    for (let i = 0; i < 5; i++)
      expectError(await anon.post(url, { password: `wrong ${i}` }), 401, 'Wrong password');
    const sixth = await anon.post(url, { password: 'wrong 6' });
    expect(sixth.statusCode).toBe(429);
    expect((await anon.post(url, { password: 'correct horse' })).statusCode).toBe(429);
    expect((await visitor(t).post(url, { password: 'correct horse' })).statusCode).toBe(204);
  });

  it('a changed password ends earlier unlocks; a removed one opens the link to anyone', async () => {
    const { as, link } = await protectedLink();
    const anon = visitor(t);
    const base = `/api/links/hash/${link.hash}`;
    const cookie = await unlock(anon, link.hash, 'correct horse');
    expect((await anon.get(base, cookie)).statusCode).toBe(200);

    const changed = await as.patch(`/api/links/${link.id}`, { password: 'battery staple' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<ShareLink>().has_password).toBe(true);
    expect((await anon.get(base, cookie)).json()).toEqual(LOCKED);
    expectError(
      await anon.post(`${base}/unlock`, { password: 'correct horse' }),
      401,
      'Wrong password',
    );
    const fresh = await unlock(anon, link.hash, 'battery staple');
    expect((await anon.get(base, fresh)).statusCode).toBe(200);

    const removed = await as.patch(`/api/links/${link.id}`, { password: null });
    expect(removed.json<ShareLink>().has_password).toBe(false);
    expect((await visitor(t).get(base)).statusCode).toBe(200);

    expectError(
      await as.patch(`/api/links/${link.id}`, { password: 'short' }),
      400,
      'A link password must be at least 8 characters.',
    );
    expectError(
      await as.post(`/api/versions/${link.version_id}/links`, { password: 'short' }),
      400,
      'A link password must be at least 8 characters.',
    );
  });
});
