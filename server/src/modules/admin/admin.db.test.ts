import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ORIGIN } from '../../../test/api';
import { buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { startTestSmtp, type TestSmtp } from '../../../test/smtp';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { testDialect } from '../../../test/test-database';
import { SmtpMailer } from '../../mail/mailer';

const ADMIN = 'admin@example.test';
const ADMIN_ROUTES: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object][] = [
  ['GET', '/api/admin/users'],
  ['POST', '/api/admin/users/someone/disable', { keep_links: true }],
  ['POST', '/api/admin/users/someone/enable'],
  ['PUT', '/api/admin/users/someone/quota', { storage_quota_bytes: 1000 }],
  ['GET', '/api/admin/signups'],
  ['PUT', '/api/admin/signups', { policy: 'closed' }],
  ['DELETE', '/api/admin/signups'],
  ['POST', '/api/admin/invitations', { email: 'new@example.test' }],
  ['GET', '/api/admin/link-defaults'],
  ['PUT', '/api/admin/link-defaults', { expires_in_days: 7, allow_downloads: true }],
  ['GET', '/api/admin/storage'],
  ['GET', '/api/admin/actions'],
];

describe(`the admin API (${testDialect()})`, () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let admin: BuiltUser;
  let person: BuiltUser;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      env: { ADMIN_EMAILS: ADMIN, USER_STORAGE_QUOTA: '20GB' },
      mailer: new SmtpMailer(smtp.url, 'Takes <no-reply@takes.test>'),
    });
    const { db } = t.deps.database;
    admin = await buildUser(db, { email: ADMIN, name: 'Ada Admin' });
    person = await buildUser(db, { email: 'pat@example.test', name: 'Pat Person' });
    await buildProject(db, person.id);
    await buildProject(db, person.id);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const call = (who: string | undefined, method: string, url: string, body?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      ...(body ? { payload: body } : {}),
      headers: { origin: ORIGIN, ...(who ? { cookie: who } : {}) },
    });

  it('does not exist for anyone but an admin: 401 signed out, 404 signed in, 403 for a demo', async () => {
    const { db } = t.deps.database;
    // An address on ADMIN_EMAILS that is not proven is no admin either.
    const unproven = await buildUser(db, {
      email: `x-${Date.now()}@example.test`,
      email_verified: testDialect() === 'postgres' ? false : 0,
    });
    const demo = await buildUser(db, { email: ADMIN.replace('admin', 'demo') });
    await db
      .insertInto('demo_accounts')
      .values({
        user_id: demo.id,
        expires_at: '2999-01-01T00:00:00.000Z',
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    for (const [method, url, body] of ADMIN_ROUTES) {
      expect((await call(undefined, method, url, body)).statusCode, url).toBe(401);
      const stranger = await call(person.cookie, method, url, body);
      expect(stranger.statusCode, url).toBe(404);
      expect(stranger.json()).toEqual({ error: 'Not found', code: 'not_found' });
      expect((await call(unproven.cookie, method, url, body)).statusCode, url).toBe(404);
      // Not even a body that would not pass tells a stranger the route is there.
      if (body) expect((await call(person.cookie, method, url, { x: 1 })).statusCode).toBe(404);
      const refused = await call(demo.cookie, method, url, body);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'demo_not_allowed' });
    }
    // Nothing they asked for happened.
    expect(await db.selectFrom('admin_actions').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('user_controls').selectAll().execute()).toEqual([]);
  });

  it('lists everyone: joined, last seen, storage, quota, projects, disabled, admin', async () => {
    const response = await api(t, admin.cookie).get('/api/admin/users');
    expect(response.statusCode, response.body).toBe(200);
    const { users } = response.json<{ users: Record<string, unknown>[] }>();
    const pat = users.find((u) => u.id === person.id);
    expect(pat).toEqual({
      id: person.id,
      name: 'Pat Person',
      email: 'pat@example.test',
      joined_at: new Date(person.created_at).toISOString(),
      last_seen_at: expect.any(String) as unknown,
      storage_used_bytes: 0,
      storage_quota_bytes: null,
      effective_quota_bytes: 20 * 1024 ** 3,
      projects: 2,
      disabled_at: null,
      links_disabled: false,
      admin: false,
    });
    expect(users.find((u) => u.id === admin.id)).toMatchObject({ admin: true, projects: 0 });
  });

  it('last seen is the newest use of a session or a desktop sign-in', async () => {
    const { db } = t.deps.database;
    const someone = await buildUser(db);
    await db
      .updateTable('sessions')
      .set({ updated_at: '2026-03-01T10:00:00.000Z' })
      .where('user_id', '=', someone.id)
      .execute();
    const seen = async () =>
      (await api(t, admin.cookie).get('/api/admin/users'))
        .json<{ users: { id: string; last_seen_at: string | null }[] }>()
        .users.find((u) => u.id === someone.id)?.last_seen_at;
    expect(await seen()).toBe('2026-03-01T10:00:00.000Z');
    await db
      .insertInto('desktop_families')
      .values({
        id: `family-${someone.id}`,
        user_id: someone.id,
        name: 'Takes CLI',
        created_at: '2026-03-01T00:00:00.000Z',
        last_used_at: '2026-04-02T08:30:00.000Z',
        expires_at: '2026-06-01T00:00:00.000Z',
        revoked_at: null,
      })
      .execute();
    expect(await seen()).toBe('2026-04-02T08:30:00.000Z');
    await db.deleteFrom('sessions').where('user_id', '=', someone.id).execute();
    await db.deleteFrom('desktop_families').where('user_id', '=', someone.id).execute();
    expect(await seen()).toBeNull();
  });

  it("sets one person's quota, shown as theirs and in effect; null gives the instance's back", async () => {
    const as = api(t, admin.cookie);
    const set = await as.put(`/api/admin/users/${person.id}/quota`, {
      storage_quota_bytes: 5_000_000,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      id: person.id,
      storage_quota_bytes: 5_000_000,
      effective_quota_bytes: 5_000_000,
    });
    // The quotas module reads the same row: the person's own storage line says so.
    const mine = await api(t, person.cookie).get('/api/account/storage');
    expect(mine.json()).toMatchObject({ quota_bytes: 5_000_000 });
    const cleared = await as.put(`/api/admin/users/${person.id}/quota`, {
      storage_quota_bytes: null,
    });
    expect(cleared.json()).toMatchObject({
      storage_quota_bytes: null,
      effective_quota_bytes: 20 * 1024 ** 3,
    });
    for (const bad of [0, -5, 1.5, 'lots']) {
      const refused = await as.put(`/api/admin/users/${person.id}/quota`, {
        storage_quota_bytes: bad,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: string }>().error).toMatch(/expected/i);
    }
    const nobody = await as.put('/api/admin/users/no-such-user/quota', {
      storage_quota_bytes: 10,
    });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toMatchObject({ error: 'User not found' });
  });

  it('stores a sign-up policy over SIGNUPS and resets it', async () => {
    const as = api(t, admin.cookie);
    expect((await as.get('/api/admin/signups')).json()).toMatchObject({
      policy: 'open',
      source: 'environment',
    });
    const closed = await as.put('/api/admin/signups', { policy: 'closed' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ policy: 'closed', source: 'stored' });
    // In force: the providers answer says so to the sign-in page.
    const providers = await t.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(providers.json()).toMatchObject({ signups: 'closed' });
    const reset = await as.delete('/api/admin/signups');
    expect(reset.json()).toMatchObject({ policy: 'open', source: 'environment' });
    const bad = await as.put('/api/admin/signups', { policy: 'sometimes' });
    expect(bad.statusCode).toBe(400);
  });

  it('invites an address to sign up, by email, whatever the policy', async () => {
    const as = api(t, admin.cookie);
    const sent = await as.post('/api/admin/invitations', { email: ' Newcomer@Example.TEST ' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ ok: true });
    const mail = await smtp.waitFor('newcomer@example.test');
    expect(mail.text).toContain('You are invited to make an account on Takes');
    expect(mail.text).toContain('/login?mode=sign-up');
    const { db } = t.deps.database;
    const row = await db
      .selectFrom('signup_invitations')
      .selectAll()
      .where('email', '=', 'newcomer@example.test')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ invited_by: admin.id, used_at: null });
    const bad = await as.post('/api/admin/invitations', { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('Invalid email address');
  });

  it('keeps the defaults new share links start from; anyone signed in reads them', async () => {
    const as = api(t, admin.cookie);
    const fresh = { expires_in_days: null, allow_downloads: false };
    expect((await as.get('/api/admin/link-defaults')).json()).toEqual(fresh);
    expect((await api(t, person.cookie).get('/api/link-defaults')).json()).toEqual(fresh);
    const set = await as.put('/api/admin/link-defaults', {
      expires_in_days: 14,
      allow_downloads: true,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ expires_in_days: 14, allow_downloads: true });
    expect((await api(t, person.cookie).get('/api/link-defaults')).json()).toEqual({
      expires_in_days: 14,
      allow_downloads: true,
    });
    expect((await call(undefined, 'GET', '/api/link-defaults')).statusCode).toBe(401);
    const bad = await as.put('/api/admin/link-defaults', { expires_in_days: 0 });
    expect(bad.statusCode).toBe(400);
  });

  it('answers the storage in all and by kind', async () => {
    const response = await api(t, admin.cookie).get('/api/admin/storage');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ total_bytes: expect.any(Number) as unknown });
  });

  it('records every action (who, what, target, when), newest first, page by page', async () => {
    const response = await api(t, admin.cookie).get('/api/admin/actions?limit=3');
    expect(response.statusCode, response.body).toBe(200);
    const first = response.json<{
      actions: { action: string; admin_email: string; target_email: string | null }[];
      next_cursor: string | null;
    }>();
    expect(first.actions.map((a) => a.action)).toEqual([
      'link_defaults.set',
      'invitation.send',
      'signups.reset',
    ]);
    expect(first.actions[0]).toMatchObject({
      admin_email: ADMIN,
      detail: { expires_in_days: 14, allow_downloads: true },
    });
    expect(first.actions[1]).toMatchObject({
      target_email: 'newcomer@example.test',
      detail: { email: 'newcomer@example.test' },
    });
    expect(first.next_cursor).not.toBeNull();
    const rest = await api(t, admin.cookie).get(
      `/api/admin/actions?limit=3&cursor=${first.next_cursor}`,
    );
    const second = rest.json<{ actions: Record<string, unknown>[]; next_cursor: string | null }>();
    expect(second.actions.map((a) => a.action)).toEqual([
      'signups.set',
      'user.quota',
      'user.quota',
    ]);
    expect(second.actions[0]).toMatchObject({ detail: { policy: 'closed' }, target_email: null });
    expect(second.actions[1]).toMatchObject({
      target_email: 'pat@example.test',
      detail: { storage_quota_bytes: null },
    });
    expect(second.actions[2]).toMatchObject({ detail: { storage_quota_bytes: 5_000_000 } });
    expect(second.next_cursor).toBeNull();
    const bad = await api(t, admin.cookie).get('/api/admin/actions?cursor=nonsense');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'Invalid cursor' });
  });

  it('writes a sign-up policy and its record together: when the record fails, the policy is unchanged', async () => {
    const before = (await api(t, admin.cookie).get('/api/admin/signups')).json<unknown>();
    // An acting admin whose account is gone: the record's reference to it fails.
    const ghost = { id: 'no-such-admin', email: 'ghost@example.test' };
    await expect(t.services.admin.storeSignups(ghost, 'invite-only')).rejects.toThrow();
    await expect(t.services.admin.resetSignups(ghost)).rejects.toThrow();
    expect((await api(t, admin.cookie).get('/api/admin/signups')).json()).toEqual(before);
    const recorded = await t.deps.database.db
      .selectFrom('admin_actions')
      .select('id')
      .where('admin_email', '=', ghost.email)
      .execute();
    expect(recorded).toEqual([]);
  });
});
