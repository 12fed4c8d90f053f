import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES, type CollectionLink, type ShareLink } from '@takes/contract';
import { api } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { expectError, visitor } from '../../../test/collection-world';
import { buildProject, buildUser, buildVersion, depsOf } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type * as PasswordHash from '../../auth/password-hash';
import { verifyPassword } from '../../auth/password-hash';
import { LINK_PASSWORD_HASHING } from './link-password';

// Every password check the app makes is counted (and, where a test says so, replaced).
vi.mock('../../auth/password-hash', async (importOriginal) => {
  const actual = await importOriginal<typeof PasswordHash>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});
const verify = vi.mocked(verifyPassword);
const { verifyPassword: realVerify } = await vi.importActual<typeof PasswordHash>(
  '../../auth/password-hash',
);

const LOCKED = { error: 'This link needs a password', code: 'link_password_required' };
const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';
const BUSY = 'Too many passwords are being checked right now. Please try again in a moment.';

function statuses(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

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
  beforeEach(() => {
    verify.mockReset();
    verify.mockImplementation(realVerify);
  });

  /** An owner with one processed take. */
  async function ownTake() {
    const db = t.deps.database.db;
    const owner = await buildUser(db, { name: 'Owner' });
    const { project, branch } = await buildProject(db, owner.id, { name: 'Night Drive' });
    const wav = await makeAudio(dir, 'wav', 1, 'Mix.wav');
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true },
    );
    return { as: api(t, owner.cookie), version };
  }

  async function protectedLink(
    body: object = { password: 'correct horse', download_enabled: true },
  ) {
    const { as, version } = await ownTake();
    const made = await as.post(`/api/versions/${version.id}/links`, body);
    expect(made.statusCode, made.body).toBe(201);
    return { as, version, link: made.json<ShareLink>() };
  }

  /** A collection of the owner's take, and its link with the password 'correct horse'. */
  async function protectedCollectionLink() {
    const { as, version } = await ownTake();
    const collection = (await as.post('/api/collections', { name: 'For the label' })).json<{
      id: string;
    }>();
    const added = await as.post(`/api/collections/${collection.id}/items`, {
      version_id: version.id,
    });
    expect(added.statusCode, added.body).toBe(201);
    const made = await as.post(`/api/collections/${collection.id}/links`, {
      name: 'Secret',
      password: 'correct horse',
    });
    expect(made.statusCode, made.body).toBe(201);
    const [link] = made.json<{ links: CollectionLink[] }>().links;
    if (!link) throw new Error('no link made');
    return { as, collection, link };
  }

  /**
   * 24 wrong passwords and the right one sent at once from one address: each try is counted
   * before its hash, so only 5 are checked and the right one opens only if it was among them.
   */
  async function expectFiveCheckedOfABurst(url: string) {
    const anon = visitor(t);
    const passwords = [
      ...Array.from({ length: 24 }, (_, i) => `wrong horse ${i}`),
      'correct horse',
    ];
    const responses = await Promise.all(passwords.map((password) => anon.post(url, { password })));
    const right = responses[24];
    expect(verify).toHaveBeenCalledTimes(5);
    const rightChecked = verify.mock.calls.some(([password]) => password === 'correct horse');
    expect(right?.statusCode).toBe(rightChecked ? 204 : 429);
    expect(statuses(responses)).toEqual(
      rightChecked ? { 204: 1, 401: 4, 429: 20 } : { 401: 5, 429: 20 },
    );
    for (const refused of responses.filter((r) => r.statusCode === 429))
      expectError(refused, 429, TOO_MANY);
    // The address's tries are used up: even the right password waits now.
    expectError(await anon.post(url, { password: 'correct horse' }), 429, TOO_MANY);
    expect(verify).toHaveBeenCalledTimes(5);
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
  // The burst tests run five real scrypt checks and one hash: a minute on a busy machine.
  it('counts every try before hashing it: of 24 wrong passwords and the right one sent at once, 5 are checked', async () => {
    const { link } = await protectedLink();
    await expectFiveCheckedOfABurst(`/api/links/hash/${link.hash}/unlock`);
  }, 60_000);

  it('the same on a collection link: of 25 tries sent at once, 5 are checked', async () => {
    const { link } = await protectedCollectionLink();
    await expectFiveCheckedOfABurst(`/api/collection-links/${link.key}/unlock`);
  }, 60_000);

  it('counts an IPv6 /64 as one address', async () => {
    const { link } = await protectedLink();
    const url = `/api/links/hash/${link.hash}/unlock`;
    verify.mockResolvedValue(false);
    const first = visitor(t, '2001:db8:1:2::a');
    for (let i = 0; i < 5; i++)
      expectError(await first.post(url, { password: `wrong ${i}` }), 401, 'Wrong password');
    // Another address of the same /64 shares its tries.
    const sameNetwork = visitor(t, '2001:db8:1:2:ffff:ffff:ffff:fffe');
    expectError(await sameNetwork.post(url, { password: 'correct horse' }), 429, TOO_MANY);
    expect(verify).toHaveBeenCalledTimes(5);
    // The next /64 has its own.
    verify.mockImplementation(realVerify);
    const otherNetwork = visitor(t, '2001:db8:1:3::a');
    expect((await otherNetwork.post(url, { password: 'correct horse' })).statusCode).toBe(204);
  });

  it('limits tries on one link from all addresses together to 50 an hour, then refuses even the right one', async () => {
    const { link } = await protectedLink();
    const url = `/api/links/hash/${link.hash}/unlock`;
    verify.mockResolvedValue(false);
    for (let address = 0; address < 10; address++) {
      const guesser = visitor(t);
      for (let i = 0; i < 5; i++)
        expectError(await guesser.post(url, { password: `wrong ${i}` }), 401, 'Wrong password');
    }
    expect(verify).toHaveBeenCalledTimes(50);
    verify.mockImplementation(realVerify);
    const listener = visitor(t);
    const refused = await listener.post(url, { password: 'correct horse' });
    expectError(refused, 429, TOO_MANY);
    // The hour's window, not the address's 10 minutes.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(10 * 60);
    expect(verify).toHaveBeenCalledTimes(50);
    // Another link keeps its own count.
    const other = await protectedLink();
    expect(
      (
        await listener.post(`/api/links/hash/${other.link.hash}/unlock`, {
          password: 'correct horse',
        })
      ).statusCode,
    ).toBe(204);
  });

  it('hashes at most 2 link passwords at once, lets 8 more wait and refuses the rest with 429', async () => {
    const { link } = await protectedLink();
    const url = `/api/links/hash/${link.hash}/unlock`;
    const { concurrent, queue } = LINK_PASSWORD_HASHING;
    let checking = 0;
    let most = 0;
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    verify.mockImplementation(async () => {
      checking += 1;
      most = Math.max(most, checking);
      await held;
      checking -= 1;
      return false;
    });
    const answered: LightMyRequestResponse[] = [];
    const tries = Array.from({ length: concurrent + queue + 2 }, (_, i) =>
      visitor(t)
        .post(url, { password: `wrong horse ${i}` })
        .then((response) => {
          answered.push(response);
          return response;
        }),
    );
    // The 2 beyond the queue are answered at once, while the others wait for their hash.
    await vi.waitFor(() => expect(answered).toHaveLength(2), { timeout: 15_000 });
    for (const busy of answered) {
      expectError(busy, 429, BUSY);
      expect(busy.headers['retry-after']).toBe('1');
    }
    expect(verify).toHaveBeenCalledTimes(concurrent);
    finish();
    const responses = await Promise.all(tries);
    expect(statuses(responses)).toEqual({ 401: concurrent + queue, 429: 2 });
    expect(most).toBe(concurrent);
    expect(verify).toHaveBeenCalledTimes(concurrent + queue);
  });

  it('refuses a common password on a version link and a collection link with 400, and makes or changes no link', async () => {
    const { as, version, link } = await protectedLink();
    const db = t.deps.database.db;
    const versionLinks = () =>
      db
        .selectFrom('links')
        .select(['id', 'password_hash'])
        .where('version_id', '=', version.id)
        .orderBy('id')
        .execute();
    const before = await versionLinks();
    expectError(
      await as.post(`/api/versions/${version.id}/links`, { password: 'password' }),
      400,
      AUTH_MESSAGES.passwordTooCommon,
    );
    expectError(
      await as.patch(`/api/links/${link.id}`, { password: 'Football' }),
      400,
      'This password is one of the most common passwords. Please choose another.',
    );
    expect(await versionLinks()).toEqual(before);

    const collection = (await as.post('/api/collections', { name: 'For the label' })).json<{
      id: string;
    }>();
    expectError(
      await as.post(`/api/collections/${collection.id}/links`, {
        name: 'Secret',
        password: 'iloveyou',
      }),
      400,
      'This password is one of the most common passwords. Please choose another.',
    );
    const made = await db
      .selectFrom('collection_links')
      .select('id')
      .where('collection_id', '=', collection.id)
      .execute();
    expect(made).toEqual([]);
  });
});
