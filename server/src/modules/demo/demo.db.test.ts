import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_MESSAGES } from '@takes/contract';
import { demoAudio, demoHelpers } from '../../../test/demo-app';
import { api, eventually, newUser, ORIGIN } from '../../../test/api';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { RateLimiter } from '../../auth/rate-limiter';
import { DEMO_CREATE_RULE } from './demo.service';

const audio = demoAudio();

describe('demo accounts', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });
  const { startDemo, projectsOf, versionsOf } = demoHelpers(() => t);

  it('gives each visitor an account of their own with the sample project; one cannot see the other', async () => {
    t = await createTestApp();
    const first = await startDemo();
    const second = await startDemo();
    expect(first.session.user.id).not.toBe(second.session.user.id);
    for (const { session } of [first, second]) {
      expect(session.user.name).toBe('Demo Musician');
      expect(session.user.email).toMatch(/^[0-9a-f]{32}@demo\.takes\.invalid$/);
    }
    expect(first.session.user.email).not.toBe(second.session.user.email);
    // Neither has a password to sign in with.
    const accounts = await t.deps.database.db
      .selectFrom('accounts')
      .select('id')
      .where('user_id', 'in', [first.session.user.id, second.session.user.id])
      .execute();
    expect(accounts).toEqual([]);

    const mine = await projectsOf(first.client);
    const theirs = await projectsOf(second.client);
    for (const projects of [mine, theirs]) {
      expect(projects).toHaveLength(1);
      expect(projects[0]).toMatchObject({
        name: 'Sample Project',
        branches: [
          { name: 'main', version_count: 2 },
          { name: 'acoustic', version_count: 0 },
        ],
      });
    }
    expect(mine[0]?.id).not.toBe(theirs[0]?.id);
    const theirProject = theirs[0]?.id ?? '';
    expect((await first.client.get(`/api/projects/${theirProject}`)).statusCode).toBe(404);
    expect((await first.client.delete(`/api/projects/${theirProject}`)).statusCode).toBe(404);
    const theirVersions = await versionsOf(second.session.user.id);
    expect(theirVersions).toHaveLength(2);
    for (const version of theirVersions) {
      expect((await first.client.get(`/api/versions/${version.id}`)).statusCode).toBe(404);
      expect((await first.client.delete(`/api/versions/${version.id}`)).statusCode).toBe(404);
    }
    expect(await projectsOf(second.client)).toHaveLength(1);

    // The sample is real audio: it processes like any upload.
    await t.deps.jobs.startWorking();
    for (const version of await versionsOf(first.session.user.id)) {
      await eventually(
        async () =>
          (await first.client.get(`/api/versions/${version.id}/processing`)).json<{
            status: string;
          }>().status === 'completed',
      );
    }
  }, 60_000);

  it('refuses a demo account share links, desktop and CLI sign-in, the debug page, password changes and invitations', async () => {
    // In development without ADMIN_EMAILS every signed-in user may see the debug page: not a demo.
    t = await createTestApp({ env: { NODE_ENV: 'development' } });
    const { client, session } = await startDemo();
    const [version] = await versionsOf(session.user.id);
    const link = await client.post(`/api/versions/${version?.id}/links`, {});
    expect(link.statusCode).toBe(403);
    expect(link.json()).toEqual({ error: DEMO_MESSAGES.shareLinks, code: 'demo_not_allowed' });
    expect(await t.deps.database.db.selectFrom('links').select('id').execute()).toEqual([]);

    const approve = await client.post('/api/desktop/approve');
    expect(approve.statusCode).toBe(403);
    expect(approve.json()).toEqual({
      error: DEMO_MESSAGES.desktopTokens,
      code: 'demo_not_allowed',
    });
    expect(
      await t.deps.database.db.selectFrom('desktop_codes').select('user_id').execute(),
    ).toEqual([]);

    const debug = await client.get('/api/debug');
    expect(debug.statusCode).toBe(403);
    expect(Object.keys(debug.json<object>())).toEqual(['error', 'code']);
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/debug',
      headers: { cookie: (await startDemo()).cookie },
    });
    expect(head.statusCode).toBe(403);
    expect((await client.post('/api/debug/round-trip')).statusCode).toBe(403);

    const password = await client.post('/api/auth/change-password', {
      current_password: 'anything',
      new_password: 'violet-mixdown-48',
    });
    expect(password.statusCode).toBe(403);
    expect(password.json()).toEqual({ error: DEMO_MESSAGES.credentials, code: 'demo_not_allowed' });

    // Invitations email any address: a demo account sends none.
    const invite = await client.post(`/api/projects/${version?.project_id}/invitations`, {
      email: 'someone@example.test',
      role: 'viewer',
    });
    expect(invite.statusCode).toBe(403);
    expect(invite.json()).toEqual({ error: DEMO_MESSAGES.invitations, code: 'demo_not_allowed' });
    expect(await t.deps.database.db.selectFrom('invitations').select('id').execute()).toEqual([]);

    // A collection of its own is fine; inviting to it or sharing it (links email anyone) is not.
    const collection = await client.post('/api/collections', { name: 'Mine' });
    expect(collection.statusCode, collection.body).toBe(201);
    const collectionId = collection.json<{ id: string }>().id;
    const collectionInvite = await client.post(`/api/collections/${collectionId}/invitations`, {
      email: 'someone@example.test',
      role: 'viewer',
    });
    expect(collectionInvite.statusCode).toBe(403);
    expect(collectionInvite.json()).toEqual({
      error: DEMO_MESSAGES.invitations,
      code: 'demo_not_allowed',
    });
    const collectionLinks = await client.post(`/api/collections/${collectionId}/links`, {
      name: 'For anyone',
      email_recipients: true,
      recipients: [{ name: 'Ana', email: 'ana@example.test' }],
    });
    expect(collectionLinks.statusCode).toBe(403);
    expect(collectionLinks.json()).toEqual({
      error: DEMO_MESSAGES.shareLinks,
      code: 'demo_not_allowed',
    });
    expect(await t.deps.database.db.selectFrom('collection_links').select('id').execute()).toEqual(
      [],
    );
    expect(await t.deps.database.db.selectFrom('invitations').select('id').execute()).toEqual([]);

    // The same calls work for a regular account.
    const owner = api(t, await newUser(t));
    const upload = (await owner.upload({ path: audio.oneSecond }, {})).json<{
      version_id: string;
    }>();
    expect((await owner.post(`/api/versions/${upload.version_id}/links`, {})).statusCode).toBe(201);
    expect((await owner.post('/api/desktop/approve')).statusCode).toBe(200);
    expect((await owner.get('/api/debug')).statusCode).toBe(200);
  }, 60_000);

  it('limits new demo accounts to 10 an hour per address', async () => {
    const clock = new TestClock();
    t = await createTestApp({ clock });
    const limiter = new RateLimiter(t.deps.database.db, clock);
    for (let i = 0; i < 10; i++) await limiter.hit(DEMO_CREATE_RULE, '10.1.2.3');
    const refused = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/demo',
        headers: { origin: ORIGIN },
        remoteAddress: '10.1.2.3',
      });
    expect((await refused()).statusCode).toBe(429);
    clock.advance(30 * 60_000);
    expect((await refused()).statusCode).toBe(429);
    expect(
      await t.deps.database.db.selectFrom('demo_accounts').select('user_id').execute(),
    ).toEqual([]);
    // Another address is not held back by this one.
    await startDemo('10.9.9.9');
  }, 60_000);

  it('is off with DEMO_ENABLED=false: the route answers 404 and the providers say so', async () => {
    t = await createTestApp({ env: { DEMO_ENABLED: 'false' } });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: DEMO_MESSAGES.disabled, code: 'not_found' });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await t.deps.database.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/providers' })).json()).toEqual({
      google: false,
      apple: false,
      demo: false,
      oidc: null,
      oidc_only: false,
      signups: 'open',
    });
    await t.close();

    t = await createTestApp();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/providers' })).json(),
    ).toMatchObject({ demo: true });
  });
});
