import { afterEach, describe, expect, it } from 'vitest';
import { cookiesFrom, createTestApp, TestClock, type TestApp } from '../../../test/test-app';

const ORIGIN = 'http://localhost:8080';

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
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  const me = (accessToken: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  it('trades an approved code, once, for tokens that work as Bearer on the API', async () => {
    const code = await signedInWithCode();
    const tokens = await post('/api/desktop/token', { code });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const pair = tokens.json<{ accessToken: string; refreshToken: string; expiresIn: number }>();
    expect(pair).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    expect((await me(pair.accessToken)).json()).toMatchObject({
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
    const { accessToken } = (await post('/api/desktop/token', { code })).json<{
      accessToken: string;
    }>();
    expect((await me(accessToken)).statusCode).toBe(200);
    clock.advance(60 * 60 * 1000 + 1000);
    expect((await me(accessToken)).statusCode).toBe(401);
  });

  it('rotates refresh tokens, and reusing an old one revokes the whole family', async () => {
    const code = await signedInWithCode();
    const first = (await post('/api/desktop/token', { code })).json<{
      accessToken: string;
      refreshToken: string;
    }>();
    const second = (await post('/api/desktop/refresh', { refreshToken: first.refreshToken })).json<{
      accessToken: string;
      refreshToken: string;
    }>();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await me(second.accessToken)).statusCode).toBe(200);

    const replay = await post('/api/desktop/refresh', { refreshToken: first.refreshToken });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'This session has ended. Sign in again.' });
    // Everything from that sign-in is gone, including the newest tokens.
    expect((await me(second.accessToken)).statusCode).toBe(401);
    expect(
      (await post('/api/desktop/refresh', { refreshToken: second.refreshToken })).statusCode,
    ).toBe(401);
  });

  it('tells the web app the configured deep-link scheme', async () => {
    t = await createTestApp({ env: { DESKTOP_SCHEME: 'takes-beta' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/desktop/config' })).json()).toEqual({
      scheme: 'takes-beta',
    });
  });
});
