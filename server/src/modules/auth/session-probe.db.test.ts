import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, createTestApp, type TestApp } from '../../../test/test-app';

const ORIGIN = 'http://localhost:8080';
const SIGNED_OUT = { user: null, expires_at: null };

/**
 * GET /api/auth/session, the question every page asks on start: nobody signed in is an answer
 * (200, no user), not an error the browser would log; a bearer token that fails is still a 401.
 */
describe('the session probe', () => {
  let t: TestApp;
  let cookie: string;
  let access_token: string;
  beforeAll(async () => {
    t = await createTestApp();
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email: 'probe@example.com', password: 'violet-mixdown-47' },
      headers: { origin: ORIGIN },
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    cookie = cookiesFrom(signUp.headers['set-cookie']);
    const approved = await t.app.inject({
      method: 'POST',
      url: '/api/desktop/approve',
      headers: { cookie, origin: ORIGIN },
    });
    const { code } = approved.json<{ code: string }>();
    const tokens = await t.app.inject({
      method: 'POST',
      url: '/api/desktop/token',
      payload: { code },
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    access_token = tokens.json<{ access_token: string }>().access_token;
  });
  afterAll(() => t.close());

  const probe = (headers: Record<string, string> = {}, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/auth/session${query}`, headers });

  it('answers 200 with no user when nobody is signed in', async () => {
    const response = await probe();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(SIGNED_OUT);
  });

  it('answers 200 with no user for a cookie that matches no live session', async () => {
    for (const stale of [
      'better-auth.session_token=not-a-session',
      'better-auth.session_token=abc.def; other=1',
      'unrelated=cookie',
    ]) {
      const response = await probe({ cookie: stale });
      expect(response.statusCode, stale).toBe(200);
      expect(response.json(), stale).toEqual(SIGNED_OUT);
    }
  });

  it('answers with the user, signed in by cookie or by bearer token', async () => {
    const callers: Record<string, string>[] = [
      { cookie },
      { authorization: `Bearer ${access_token}` },
    ];
    for (const headers of callers) {
      const response = await probe(headers);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ user: { email: string }; expires_at: string }>();
      expect(body.user.email).toBe('probe@example.com');
      expect(Number.isNaN(Date.parse(body.expires_at))).toBe(false);
    }
  });

  it('keeps 401 for a bearer token that fails, in the header or in ?token=', async () => {
    const inHeader = await probe({ authorization: 'Bearer tka_not-a-token' });
    expect(inHeader.statusCode).toBe(401);
    const inQuery = await probe({}, '?token=tka_not-a-token');
    expect(inQuery.statusCode).toBe(401);
    // Even alongside a good cookie: the token is what the caller chose to prove itself with.
    const withCookie = await probe({ cookie, authorization: 'Bearer tka_not-a-token' });
    expect(withCookie.statusCode).toBe(401);
  });

  it('answers no user once the session has ended', async () => {
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: ORIGIN },
    });
    expect(signedOut.statusCode).toBe(200);
    const response = await probe({ cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(SIGNED_OUT);
  });

  it('keeps 401 on the routes that need a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/projects' });
    expect(response.statusCode).toBe(401);
  });
});
