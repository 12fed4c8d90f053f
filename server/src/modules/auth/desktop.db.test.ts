import { afterEach, describe, expect, it } from 'vitest';
import { cookiesFrom, createTestApp, TestClock, type TestApp } from '../../../test/test-app';

const ORIGIN = 'http://localhost:8080';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('desktop and CLI tokens', () => {
  let t: TestApp;
  let clock: TestClock;
  afterEach(async () => {
    await t.close();
  });

  async function signedInWithCode() {
    clock = new TestClock();
    t = await createTestApp({ clock });
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email: 'desk@example.com', password: 'violet-mixdown-47' },
      headers: { origin: ORIGIN },
    });
    const cookie = cookiesFrom(signUp.headers['set-cookie']);
    const approved = await t.app.inject({
      method: 'POST',
      url: '/api/desktop/approve',
      headers: { cookie, origin: ORIGIN },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    return approved.json<{ code: string }>().code;
  }
  async function signUpForCookie(email = 'desk@example.com', fresh = true) {
    if (fresh) {
      clock = new TestClock();
      t = await createTestApp({ clock });
    }
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: 'violet-mixdown-47' },
      headers: { origin: ORIGIN },
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    return cookiesFrom(signUp.headers['set-cookie']);
  }
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  const me = (access_token: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${access_token}` },
    });

  it('trades an approved code, once, for tokens that work as Bearer on the API', async () => {
    const code = await signedInWithCode();
    const tokens = await post('/api/desktop/token', { code });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const pair = tokens.json<{ access_token: string; refresh_token: string; expires_in: number }>();
    expect(pair).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect((await me(pair.access_token)).json()).toMatchObject({
      user: { email: 'desk@example.com' },
    });
    const again = await post('/api/desktop/token', { code });
    expect(again.statusCode).toBe(400);
    expect((await me('tka_not-a-token')).statusCode).toBe(401);
  });

  it('needs a signed-in person to approve', async () => {
    await signedInWithCode();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/desktop/approve',
          headers: { origin: ORIGIN },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('expires an unused code after 5 minutes and an access token after an hour', async () => {
    const stale = await signedInWithCode();
    clock.advance(5 * 60 * 1000 + 1000);
    expect((await post('/api/desktop/token', { code: stale })).statusCode).toBe(400);

    const cookie = cookiesFrom(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          payload: { email: 'desk@example.com', password: 'violet-mixdown-47' },
          headers: { origin: ORIGIN },
        })
      ).headers['set-cookie'],
    );
    const code = (
      await t.app.inject({
        method: 'POST',
        url: '/api/desktop/approve',
        headers: { cookie, origin: ORIGIN },
      })
    ).json<{ code: string }>().code;
    const { access_token } = (await post('/api/desktop/token', { code })).json<{
      access_token: string;
    }>();
    expect((await me(access_token)).statusCode).toBe(200);
    clock.advance(60 * 60 * 1000 + 1000);
    expect((await me(access_token)).statusCode).toBe(401);
  });

  it('rotates refresh tokens, and reusing an old one revokes the whole family', async () => {
    const code = await signedInWithCode();
    const first = (await post('/api/desktop/token', { code })).json<{
      access_token: string;
      refresh_token: string;
    }>();
    const second = (
      await post('/api/desktop/refresh', { refresh_token: first.refresh_token })
    ).json<{
      access_token: string;
      refresh_token: string;
    }>();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.access_token)).statusCode).toBe(200);

    const replay = await post('/api/desktop/refresh', { refresh_token: first.refresh_token });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({
      error: 'This session has ended. Sign in again.',
      code: 'unauthenticated',
    });
    // Everything from that sign-in is gone, including the newest tokens.
    expect((await me(second.access_token)).statusCode).toBe(401);
    expect(
      (await post('/api/desktop/refresh', { refresh_token: second.refresh_token })).statusCode,
    ).toBe(401);
  });

  it('ends a sign-in 90 days after it began, however often it was refreshed', async () => {
    const code = await signedInWithCode();
    let pair = (await post('/api/desktop/token', { code })).json<{
      access_token: string;
      refresh_token: string;
    }>();
    // Each refresh well inside the sliding 60 days, up to half an hour before day 90.
    for (const ms of [50 * DAY, 39 * DAY + 23.5 * HOUR]) {
      clock.advance(ms);
      const refreshed = await post('/api/desktop/refresh', { refresh_token: pair.refresh_token });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      pair = refreshed.json();
    }
    expect((await me(pair.access_token)).statusCode).toBe(200);
    // Day 90 and a minute: even the access token issued 31 minutes ago ends with the family.
    clock.advance(31 * 60 * 1000);
    expect((await me(pair.access_token)).statusCode).toBe(401);
    const late = await post('/api/desktop/refresh', { refresh_token: pair.refresh_token });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({
      error: 'This session has ended. Sign in again.',
      code: 'unauthenticated',
    });
  });

  it('lists each device by name with created and last-used times, and revokes one', async () => {
    const cookie = await signUpForCookie();
    const approve = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/desktop/approve',
          headers: { cookie, origin: ORIGIN },
        })
      ).json<{ code: string }>().code;
    const cli = (
      await t.app.inject({
        method: 'POST',
        url: '/api/desktop/token',
        payload: { code: await approve(), name: '  takes CLI on studio-mac\u0007 ' },
        headers: { 'user-agent': 'takes-cli/0.1.0' },
      })
    ).json<{ access_token: string; refresh_token: string }>();
    clock.advance(5 * 60 * 1000);
    const app = (
      await t.app.inject({
        method: 'POST',
        url: '/api/desktop/token',
        payload: { code: await approve() },
        headers: { 'user-agent': 'Mozilla/5.0 (Macintosh) Takes/1.0 Electron/33.0.0' },
      })
    ).json<{ access_token: string; refresh_token: string }>();
    const tooLong = await t.app.inject({
      method: 'POST',
      url: '/api/desktop/token',
      payload: { code: await approve(), name: 'x'.repeat(101) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ error: 'Device name must be at most 100 characters' });

    const list = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/desktop/tokens',
        headers: { cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{
        devices: { id: string; name: string; created_at: string; last_used_at: string }[];
      }>().devices;
    };
    const [desktopApp, cliDevice] = await list();
    expect(desktopApp?.name).toBe('Desktop app');
    expect(cliDevice?.name).toBe('takes CLI on studio-mac');
    expect(cliDevice?.last_used_at).toBe(cliDevice?.created_at);

    // Bearer use records the time, at most once a minute.
    clock.advance(2 * 60 * 1000);
    expect((await me(cli.access_token)).statusCode).toBe(200);
    const usedAt = (await list()).find((d) => d.id === cliDevice?.id)?.last_used_at;
    expect(new Date(usedAt ?? 0).getTime()).toBeGreaterThan(
      new Date(cliDevice?.created_at ?? 0).getTime(),
    );
    clock.advance(10 * 1000);
    expect((await me(cli.access_token)).statusCode).toBe(200);
    expect((await list()).find((d) => d.id === cliDevice?.id)?.last_used_at).toBe(usedAt);
    // And a refresh does too.
    clock.advance(60 * 1000);
    const beforeRefresh = clock.now().getTime();
    const refreshed = await post('/api/desktop/refresh', { refresh_token: app.refresh_token });
    expect(refreshed.statusCode).toBe(200);
    const appUsedAt = (await list()).find((d) => d.id === desktopApp?.id)?.last_used_at;
    expect(new Date(appUsedAt ?? 0).getTime()).toBeGreaterThanOrEqual(beforeRefresh);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/desktop/tokens/${cliDevice?.id}`,
      headers: { cookie, origin: ORIGIN },
    });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await me(cli.access_token)).statusCode).toBe(401);
    expect(
      (await post('/api/desktop/refresh', { refresh_token: cli.refresh_token })).statusCode,
    ).toBe(401);
    expect((await list()).map((d) => d.id)).toEqual([desktopApp?.id]);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/desktop/tokens/${cliDevice?.id}`,
      headers: { cookie, origin: ORIGIN },
    });
    expect(again.statusCode).toBe(404);
  });

  it("answers 404 for another person's device and lists only the caller's", async () => {
    const ownerCookie = await signUpForCookie('owner@example.com');
    const code = (
      await t.app.inject({
        method: 'POST',
        url: '/api/desktop/approve',
        headers: { cookie: ownerCookie, origin: ORIGIN },
      })
    ).json<{ code: string }>().code;
    const pair = (await post('/api/desktop/token', { code })).json<{ access_token: string }>();
    const [device] = (
      await t.app.inject({
        method: 'GET',
        url: '/api/desktop/tokens',
        headers: { cookie: ownerCookie },
      })
    ).json<{ devices: { id: string }[] }>().devices;
    expect(device).toBeDefined();

    const otherCookie = await signUpForCookie('other@example.com', false);
    const othersList = await t.app.inject({
      method: 'GET',
      url: '/api/desktop/tokens',
      headers: { cookie: otherCookie },
    });
    expect(othersList.json()).toEqual({ devices: [] });
    const forged = await t.app.inject({
      method: 'DELETE',
      url: `/api/desktop/tokens/${device?.id}`,
      headers: { cookie: otherCookie, origin: ORIGIN },
    });
    expect(forged.statusCode).toBe(404);
    expect(forged.json()).toEqual({ error: 'Device not found', code: 'not_found' });
    expect((await me(pair.access_token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/desktop/tokens' })).statusCode).toBe(
      401,
    );
  });

  it('tells the web app the configured deep-link scheme', async () => {
    t = await createTestApp({ env: { DESKTOP_SCHEME: 'takes-beta' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/desktop/config' })).json()).toEqual({
      scheme: 'takes-beta',
    });
  });
});
