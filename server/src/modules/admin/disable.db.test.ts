import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_DISABLED_MESSAGE } from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import {
  buildCollection,
  buildCollectionLink,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
  type BuiltUser,
} from '../../../test/factories';
import { codeFrom, startTestSmtp, type TestSmtp } from '../../../test/smtp';
import { openSse, type SseStream } from '../../../test/sse';
import { cookiesFrom, createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { testDialect } from '../../../test/test-database';
import { createEventBus } from '../../events/create-bus';
import type { LiveEvent } from '../../events/bus';
import { SmtpMailer } from '../../mail/mailer';

const ADMIN = 'admin@example.test';
const PASSWORD = 'violet-mixdown-47';

describe(`disabling an account (${testDialect()})`, () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let base: string;
  let admin: BuiltUser;
  let ip = 0;
  const clock = new TestClock();
  const streams: SseStream[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtp();
    // The default 25 s heartbeat: a stream that ends within a second ended on the event.
    t = await createTestApp({
      env: { ADMIN_EMAILS: ADMIN },
      clock,
      mailer: new SmtpMailer(smtp.url, 'Takes <no-reply@takes.test>'),
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await buildUser(t.deps.database.db, { email: ADMIN });
  }, 60_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { origin: ORIGIN, ...headers },
      // Each sign-in from its own address: the per-address limits stay out of it.
      remoteAddress: `10.9.0.${++ip}`,
    });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { origin: ORIGIN, ...headers } });

  async function signIn(email: string) {
    return post('/api/auth/sign-in/email', { email, password: PASSWORD });
  }

  /** Someone with a password, two browsers, a CLI sign-in, a share link and a collection link. */
  async function someone(name: string) {
    const email = `${name}-${Date.now()}@example.test`;
    const signUp = await post('/api/auth/sign-up/email', { email, password: PASSWORD });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const cookie = cookiesFrom(signUp.headers['set-cookie']);
    const second = cookiesFrom((await signIn(email)).headers['set-cookie']);
    const id = (await get('/api/auth/session', { cookie })).json<{ user: { id: string } }>().user
      .id;
    const approved = await post('/api/desktop/approve', {}, { cookie });
    expect(approved.statusCode, approved.body).toBe(200);
    const tokens = (
      await post('/api/desktop/token', { code: approved.json<{ code: string }>().code })
    ).json<{ access_token: string; refresh_token: string }>();
    const { db } = t.deps.database;
    const { project, branch } = await buildProject(db, id);
    const version = await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
    const link = await api(t, cookie).post(`/api/versions/${version.id}/links`, {});
    expect(link.statusCode, link.body).toBe(201);
    const collection = await buildCollection(db, id);
    const collectionLink = await buildCollectionLink(db, collection.id);
    const player = await api(t, cookie).post('/api/player-apps', { name: 'Phone' });
    expect(player.statusCode, player.body).toBe(201);
    return {
      id,
      email,
      cookies: [cookie, second],
      tokens,
      playerKey: player.json<{ api_key: string }>().api_key,
      shareKey: link.json<{ hash: string }>().hash,
      collectionKey: collectionLink.hash,
    };
  }
  type Someone = Awaited<ReturnType<typeof someone>>;

  const linkStatuses = async (who: Someone) => [
    (await get(`/api/links/hash/${who.shareKey}`)).statusCode,
    (await get(`/api/collection-links/${who.collectionKey}`)).statusCode,
  ];

  /** A player app's call with the person's key: 'ok', or Subsonic's error code. */
  const playerAnswer = async (who: Someone) => {
    const answer = (await get(`/rest/ping.view?apiKey=${who.playerKey}&f=json`)).json<{
      'subsonic-response': { status: string; error?: { code: number } };
    }>()['subsonic-response'];
    return answer.status === 'ok' ? 'ok' : answer.error?.code;
  };

  async function stream(cookie: string): Promise<SseStream> {
    const opened = await openSse(`${base}/api/events`, { cookie });
    streams.push(opened);
    expect(opened.status).toBe(200);
    await opened.waitForLine((line) => line === ': connected');
    return opened;
  }

  it('ends every sign-in at once: cookies, the CLI token and its refresh, open streams', async () => {
    const pat = await someone('pat');
    const live = await stream(pat.cookies[0]!);
    const other = await someone('other');
    const bystander = await stream(other.cookies[0]!);
    expect(await linkStatuses(pat)).toEqual([200, 200]);
    expect(await playerAnswer(pat)).toBe('ok');

    const started = Date.now();
    const disabled = await api(t, admin.cookie).post(`/api/admin/users/${pat.id}/disable`, {
      keep_links: false,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({
      id: pat.id,
      disabled_at: expect.any(String) as unknown,
      links_disabled: true,
    });
    // The stream ends on the event, long before its 25 s heartbeat would have asked.
    await live.ended;
    expect(Date.now() - started).toBeLessThan(5_000);

    for (const cookie of pat.cookies)
      expect((await get('/api/projects', { cookie })).statusCode).toBe(401);
    const bearer = { authorization: `Bearer ${pat.tokens.access_token}` };
    expect((await get('/api/projects', bearer)).statusCode).toBe(401);
    const refreshed = await post('/api/desktop/refresh', {
      refresh_token: pat.tokens.refresh_token,
    });
    expect(refreshed.statusCode).toBe(401);
    // A player app's key opens nothing either (Subsonic's 'wrong key').
    expect(await playerAnswer(pat)).toBe(44);
    // Their links answer as unknown ones; someone else's stream and sign-ins go on.
    expect(await linkStatuses(pat)).toEqual([404, 404]);
    expect((await get('/api/projects', { cookie: other.cookies[0]! })).statusCode).toBe(200);
    expect(bystander.lines).toContain(': connected');
    let bystanderEnded = false;
    void bystander.ended.then(() => (bystanderEnded = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bystanderEnded).toBe(false);

    const { db } = t.deps.database;
    const record = await db
      .selectFrom('admin_actions')
      .selectAll()
      .where('target_user_id', '=', pat.id)
      .execute();
    expect(record).toEqual([
      expect.objectContaining({
        admin_id: admin.id,
        admin_email: ADMIN,
        action: 'user.disable',
        target_email: pat.email,
      }),
    ]);
    expect(JSON.parse(record[0]!.detail!)).toMatchObject({ keep_links: false, sessions: 2 });
  });

  it('cannot sign in again by any path until enabled: password, emailed code', async () => {
    const pat = await someone('sam');
    const as = api(t, admin.cookie);
    await as.post(`/api/admin/users/${pat.id}/disable`, { keep_links: false });

    const byPassword = await signIn(pat.email);
    expect(byPassword.statusCode).toBe(403);
    expect(byPassword.json()).toMatchObject({ error: ACCOUNT_DISABLED_MESSAGE });
    expect(byPassword.headers['set-cookie'] ?? []).not.toContainEqual(
      expect.stringContaining('session_token=') as unknown,
    );

    const before = smtp.messages.filter((m) => m.to.includes(pat.email)).length;
    expect((await post('/api/auth/magic-code/send', { email: pat.email })).statusCode).toBe(200);
    const code = codeFrom(await smtp.waitFor(pat.email, before + 1));
    const byCode = await post('/api/auth/magic-code/verify', { email: pat.email, code });
    expect(byCode.statusCode).toBe(403);
    expect(byCode.json()).toMatchObject({ error: ACCOUNT_DISABLED_MESSAGE });
    const { db } = t.deps.database;
    const sessions = await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', pat.id)
      .execute();
    expect(sessions).toEqual([]);

    const enabled = await as.post(`/api/admin/users/${pat.id}/enable`);
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ disabled_at: null, links_disabled: false });
    // (Proving the address by code took the account over: its password is gone, so by code.)
    const sent = smtp.messages.filter((m) => m.to.includes(pat.email)).length;
    clock.advance(61_000); // one code email per address a minute
    expect((await post('/api/auth/magic-code/send', { email: pat.email })).statusCode).toBe(200);
    const fresh = codeFrom(await smtp.waitFor(pat.email, sent + 1));
    const again = await post('/api/auth/magic-code/verify', { email: pat.email, code: fresh });
    expect(again.statusCode, again.body).toBe(200);
    const cookie = cookiesFrom(again.headers['set-cookie']);
    expect((await get('/api/projects', { cookie })).statusCode).toBe(200);
    expect(await linkStatuses(pat)).toEqual([200, 200]);
    expect(await playerAnswer(pat)).toBe('ok');
    const actions = await db
      .selectFrom('admin_actions')
      .select('action')
      .where('target_user_id', '=', pat.id)
      .orderBy('created_at')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['user.disable', 'user.enable']);
  });

  it("keeps a disabled person's links working when the admin says so", async () => {
    const pat = await someone('kim');
    const disabled = await api(t, admin.cookie).post(`/api/admin/users/${pat.id}/disable`, {
      keep_links: true,
    });
    expect(disabled.json()).toMatchObject({
      disabled_at: expect.any(String) as unknown,
      links_disabled: false,
    });
    expect((await get('/api/projects', { cookie: pat.cookies[0]! })).statusCode).toBe(401);
    expect(await linkStatuses(pat)).toEqual([200, 200]);
    expect((await signIn(pat.email)).statusCode).toBe(403);
    await api(t, admin.cookie).post(`/api/admin/users/${pat.id}/enable`);
    const again = await signIn(pat.email);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a session, desktop token or player key that outlived the revocation opens nothing while disabled', async () => {
    const pat = await someone('lee');
    const { db } = t.deps.database;
    const bearer = { authorization: `Bearer ${pat.tokens.access_token}` };
    // A session that began while 'Disable' was deleting the others (its check ran just before).
    const session = { cookie: pat.cookies[0] as string };
    // Marked disabled without the revocation 'Disable' does (as if a refresh raced it).
    const mark = (disabledAt: string | null) =>
      db
        .insertInto('user_controls')
        .values({ user_id: pat.id, disabled_at: disabledAt, updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ disabled_at: disabledAt }))
        .execute();
    await mark(new Date().toISOString());
    expect((await get('/api/projects', bearer)).statusCode).toBe(401);
    expect((await get('/api/projects', session)).statusCode).toBe(401);
    expect(await playerAnswer(pat)).toBe(44);
    const refused = await post('/api/desktop/refresh', { refresh_token: pat.tokens.refresh_token });
    expect(refused.statusCode).toBe(401);
    await mark(null);
    expect((await get('/api/projects', bearer)).statusCode).toBe(200);
    expect((await get('/api/projects', session)).statusCode).toBe(200);
    expect(await playerAnswer(pat)).toBe('ok');
    const refreshed = await post('/api/desktop/refresh', {
      refresh_token: pat.tokens.refresh_token,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  if (testDialect() === 'postgres') {
    it("another serve process hears it over LISTEN/NOTIFY, once 'Disable' commits", async () => {
      // What another process has: its own listening connection on the same installation.
      const elsewhere = await createEventBus(t.database, {
        connectionString: t.database.config.dialect === 'postgres' ? t.database.config.url : '',
        searchPath: t.database.searchPath,
      });
      const heard: LiveEvent[] = [];
      const unsubscribe = elsewhere.subscribe((event) => heard.push(event));
      try {
        const pat = await someone('ash');
        const disabled = await api(t, admin.cookie).post(`/api/admin/users/${pat.id}/disable`, {
          keep_links: true,
        });
        expect(disabled.statusCode, disabled.body).toBe(200);
        await vi.waitFor(
          () => expect(heard).toContainEqual({ type: 'account.disabled', userId: pat.id }),
          { timeout: 2_000 },
        );
      } finally {
        unsubscribe();
        await elsewhere.close();
      }
    });
  }

  it('refuses to disable the admin themselves, or someone who does not exist', async () => {
    const as = api(t, admin.cookie);
    const self = await as.post(`/api/admin/users/${admin.id}/disable`, { keep_links: true });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ error: 'You cannot disable your own account.' });
    expect((await get('/api/projects', { cookie: admin.cookie })).statusCode).toBe(200);
    const nobody = await as.post('/api/admin/users/no-such-user/disable', { keep_links: true });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toMatchObject({ error: 'User not found' });
    const missing = await as.post(`/api/admin/users/${admin.id}/disable`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: string }>().error).toMatch(/expected boolean/);
  });
});
