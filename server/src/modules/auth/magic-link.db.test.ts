import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ORIGIN } from '../../../test/api';
import { mailAppSuite } from '../../../test/mail-app';
import { codeFrom, linkTokenFrom } from '../../../test/smtp';
import { cookiesFrom, type TestClock, type TestApp } from '../../../test/test-app';
import { buildApp } from '../../app';

const { smtp, uniqueEmail, start: startMailApp } = mailAppSuite('link');
const INVALID = { error: 'Invalid or expired OTP code', code: 'invalid' };

/** Login CSRF: following the emailed link only asks; signing in is an Origin-checked POST. */
describe('the emailed sign-in link', () => {
  let t: TestApp;
  let clock: TestClock;
  async function start() {
    ({ t, clock } = await startMailApp());
  }

  function post(
    url: string,
    payload: object,
    headers: Record<string, string> = { origin: ORIGIN },
  ) {
    return t.app.inject({ method: 'POST', url, payload, headers });
  }

  async function emailedToken(email = uniqueEmail()) {
    expect((await post('/api/auth/magic-code/send', { email })).statusCode).toBe(200);
    const mail = await smtp.waitFor(email);
    return { email, token: linkTokenFrom(mail), code: codeFrom(mail) };
  }

  it('a GET of the old link address never signs in: it opens the page with the token', async () => {
    await start();
    const { email, token } = await emailedToken();
    const old = await t.app.inject({
      method: 'GET',
      url: `/api/auth/magic-code/link?token=${token}`,
    });
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe(`/magic-link#token=${token}`);
    expect(old.headers['set-cookie']).toBeUndefined();
    const missing = await t.app.inject({ method: 'GET', url: '/api/auth/magic-code/link' });
    expect(missing.headers.location).toBe('/login?error=invalid_link');
    // The GET used nothing up: the link still signs in, once.
    const signedIn = await post('/api/auth/magic-code/link', { token });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email } });
  });

  it('names the account for the page to ask, without using the link up', async () => {
    await start();
    const { email, token } = await emailedToken();
    for (let i = 0; i < 2; i++) {
      const details = await post('/api/auth/magic-code/link/details', { token });
      expect(details.statusCode, details.body).toBe(200);
      expect(details.json()).toEqual({ email });
      expect(details.headers['set-cookie']).toBeUndefined();
    }
    const signedIn = await post('/api/auth/magic-code/link', { token });
    expect(signedIn.statusCode).toBe(200);
    const cookie = cookiesFrom(signedIn.headers['set-cookie']);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).json(),
    ).toMatchObject({ user: { email } });
    // Used: the page now gets the invalid-link answer, as for an unknown token.
    const used = await post('/api/auth/magic-code/link/details', { token });
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual(INVALID);
    expect((await post('/api/auth/magic-code/link/details', { token: 'nope' })).json()).toEqual(
      INVALID,
    );
    expect((await post('/api/auth/magic-code/link', { token: 'nope' })).json()).toEqual(INVALID);
  });

  it('refuses a sign-in posted from another site, or without an Origin', async () => {
    await start();
    const { token } = await emailedToken();
    const forged = await post(
      '/api/auth/magic-code/link',
      { token },
      { origin: 'https://evil.example' },
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ error: 'Cross-site request refused', code: 'forbidden' });
    expect(forged.headers['set-cookie']).toBeUndefined();
    const bare = await post('/api/auth/magic-code/link', { token }, {});
    expect(bare.statusCode).toBe(403);
    expect(bare.headers['set-cookie']).toBeUndefined();
    // Neither used the link up.
    expect((await post('/api/auth/magic-code/link', { token })).statusCode).toBe(200);
  });

  it('keeps the link token out of the request log on the way in', async () => {
    await start();
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const logged = await buildApp(t.deps, { logger });
    await logged.ready();
    try {
      const email = uniqueEmail();
      const send = await logged.inject({
        method: 'POST',
        url: '/api/auth/magic-code/send',
        payload: { email },
        headers: { origin: ORIGIN },
      });
      expect(send.statusCode).toBe(200);
      const token = linkTokenFrom(await smtp.waitFor(email));
      for (const url of ['/api/auth/magic-code/link/details', '/api/auth/magic-code/link']) {
        const response = await logged.inject({
          method: 'POST',
          url,
          payload: { token },
          headers: { origin: ORIGIN },
        });
        expect(response.statusCode, response.body).toBe(200);
      }
      expect(lines.some((line) => line.includes('/api/auth/magic-code/link'))).toBe(true);
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await logged.close();
    }
  });

  it('expires with the code after 10 minutes, and a resend replaces it', async () => {
    await start();
    const { email, token } = await emailedToken();
    clock.advance(10 * 60 * 1000 + 1000);
    expect((await post('/api/auth/magic-code/link/details', { token })).json()).toEqual(INVALID);
    expect((await post('/api/auth/magic-code/link', { token })).statusCode).toBe(400);

    expect((await post('/api/auth/magic-code/send', { email })).statusCode).toBe(200);
    const second = linkTokenFrom(await smtp.waitFor(email, 2));
    clock.advance(61_000);
    expect((await post('/api/auth/magic-code/send', { email })).statusCode).toBe(200);
    const third = linkTokenFrom(await smtp.waitFor(email, 3));
    expect((await post('/api/auth/magic-code/link', { token: second })).statusCode).toBe(400);
    expect((await post('/api/auth/magic-code/link', { token: third })).statusCode).toBe(200);
  });
});
