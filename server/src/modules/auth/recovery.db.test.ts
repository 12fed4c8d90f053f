import { describe, expect, it } from 'vitest';
import { ORIGIN } from '../../../test/api';
import { mailAppSuite } from '../../../test/mail-app';
import { codeFrom } from '../../../test/smtp';
import { cookiesFrom, type TestClock, type TestApp } from '../../../test/test-app';

const { smtp, uniqueEmail, start: startMailApp } = mailAppSuite('recovery');
const PASSWORD = 'violet-mixdown-47';

interface Pair {
  access_token: string;
  refresh_token: string;
}

/** Every recovery action ends the desktop and CLI sign-ins made before it. */
describe('desktop and CLI tokens end with account recovery', () => {
  let t: TestApp;
  let clock: TestClock;
  async function start() {
    ({ t, clock } = await startMailApp());
  }

  function post(url: string, payload: object, headers: Record<string, string> = {}) {
    return t.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN, ...headers } });
  }

  async function signUp(email = uniqueEmail()) {
    const response = await post('/api/auth/sign-up/email', { email, password: PASSWORD });
    expect(response.statusCode, response.body).toBe(200);
    return { email, cookie: cookiesFrom(response.headers['set-cookie']) };
  }

  async function desktopSignIn(cookie: string, name: string): Promise<Pair> {
    const approved = await post('/api/desktop/approve', {}, { cookie });
    expect(approved.statusCode, approved.body).toBe(200);
    const tokens = await post('/api/desktop/token', {
      code: approved.json<{ code: string }>().code,
      name,
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    return tokens.json<Pair>();
  }

  const bearer = (pair: Pair) =>
    t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${pair.access_token}` },
    });
  const refresh = (pair: Pair) =>
    post('/api/desktop/refresh', { refresh_token: pair.refresh_token });

  async function expectEnded(pair: Pair) {
    expect((await bearer(pair)).statusCode).toBe(401);
    expect((await refresh(pair)).statusCode).toBe(401);
  }

  it("the proven owner taking over an unproven account ends the squatter's tokens", async () => {
    await start();
    // Someone signs up with an address that is not theirs and signs in the CLI.
    const { email, cookie } = await signUp();
    const squatter = await desktopSignIn(cookie, 'takes CLI on squat-box');
    expect((await bearer(squatter)).statusCode).toBe(200);
    // A code approved but not yet traded must not survive either.
    const pending = (await post('/api/desktop/approve', {}, { cookie })).json<{ code: string }>();

    // The address's real owner signs in with an emailed code.
    expect((await post('/api/auth/magic-code/send', { email })).statusCode).toBe(200);
    const code = codeFrom(await smtp.waitFor(email));
    const owner = await post('/api/auth/magic-code/verify', { email, code });
    expect(owner.statusCode, owner.body).toBe(200);

    await expectEnded(squatter);
    expect((await post('/api/desktop/token', { code: pending.code })).statusCode).toBe(400);
    const ownerCookie = cookiesFrom(owner.headers['set-cookie']);
    const devices = await t.app.inject({
      method: 'GET',
      url: '/api/desktop/tokens',
      headers: { cookie: ownerCookie },
    });
    expect(devices.json()).toEqual({ devices: [] });
    // The owner's own new sign-ins work.
    const mine = await desktopSignIn(ownerCookie, 'Desktop app');
    expect((await refresh(mine)).statusCode).toBe(200);
  });

  it('a proven account signing in by code again keeps its devices', async () => {
    await start();
    const email = uniqueEmail();
    const signInByCode = async (count: number) => {
      expect((await post('/api/auth/magic-code/send', { email })).statusCode).toBe(200);
      const verified = await post('/api/auth/magic-code/verify', {
        email,
        code: codeFrom(await smtp.waitFor(email, count)),
      });
      expect(verified.statusCode, verified.body).toBe(200);
      return cookiesFrom(verified.headers['set-cookie']);
    };
    const pair = await desktopSignIn(await signInByCode(1), 'laptop');
    clock.advance(61_000);
    await signInByCode(2);
    expect((await bearer(pair)).statusCode).toBe(200);
    expect((await refresh(pair)).statusCode).toBe(200);
  });

  it('a password change ends every desktop and CLI sign-in', async () => {
    await start();
    const { cookie } = await signUp();
    const laptop = await desktopSignIn(cookie, 'laptop');
    const cli = await desktopSignIn(cookie, 'takes CLI on build-box');
    const wrong = await post(
      '/api/auth/change-password',
      { current_password: 'not-my-password', new_password: 'amber-bounce-93' },
      { cookie },
    );
    expect(wrong.statusCode).toBe(400);
    // A refused change ends nothing.
    expect((await bearer(laptop)).statusCode).toBe(200);

    const changed = await post(
      '/api/auth/change-password',
      { current_password: PASSWORD, new_password: 'amber-bounce-93' },
      { cookie },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    await expectEnded(laptop);
    await expectEnded(cli);
  });

  it("'Sign out other sessions' ends other sessions and every device, and counts them", async () => {
    await start();
    const { email, cookie } = await signUp();
    const otherBrowser = cookiesFrom(
      (await post('/api/auth/sign-in/email', { email, password: PASSWORD })).headers['set-cookie'],
    );
    const laptop = await desktopSignIn(cookie, 'laptop');
    const cli = await desktopSignIn(cookie, 'takes CLI on build-box');

    const out = await post('/api/auth/sign-out-others', {}, { cookie });
    expect(out.json()).toEqual({ ok: true, revoked: 3 });
    await expectEnded(laptop);
    await expectEnded(cli);
    // The other browser is signed out: its session probe answers no user.
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: otherBrowser },
    });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ user: null, expires_at: null });
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie },
    });
    expect(own.json<{ user: unknown }>().user).not.toBeNull();
  });

  it("from the CLI, 'sign out others' keeps the CLI's own sign-in", async () => {
    await start();
    const { cookie } = await signUp();
    const laptop = await desktopSignIn(cookie, 'laptop');
    const cli = await desktopSignIn(cookie, 'takes CLI on build-box');
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out-others',
      headers: { authorization: `Bearer ${cli.access_token}` },
    });
    expect(out.json()).toEqual({ ok: true, revoked: 2 });
    await expectEnded(laptop);
    expect((await bearer(cli)).statusCode).toBe(200);
    expect((await refresh(cli)).statusCode).toBe(200);
  });
});
