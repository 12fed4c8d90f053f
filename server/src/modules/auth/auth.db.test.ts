import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  codeFrom,
  linkFrom,
  linkTokenFrom,
  startTestSmtp,
  type TestSmtp,
} from '../../../test/smtp';
import {
  cookiesFrom,
  createTestApp,
  TestClock,
  type TestApp,
  type TestAppOptions,
} from '../../../test/test-app';
import { SmtpMailer } from '../../mail/mailer';

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
});

let counter = 0;
const uniqueEmail = () => `musician${Date.now()}${++counter}@example.com`;
const ORIGIN = 'http://localhost:8080';

describe('accounts and sign-in', () => {
  let t: TestApp;
  let clock: TestClock;
  afterEach(async () => {
    await t.close();
  });

  async function start(options: TestAppOptions = {}) {
    clock = new TestClock();
    t = await createTestApp({
      clock,
      mailer: new SmtpMailer(smtp.url, 'Takes <no-reply@takes.test>'),
      ...options,
    });
  }

  function post(url: string, payload: object, headers: Record<string, string> = {}) {
    return t.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN, ...headers } });
  }

  async function signUp(email = uniqueEmail(), password = 'violet-mixdown-47') {
    const response = await post('/api/auth/sign-up/email', { email, password });
    expect(response.statusCode, response.body).toBe(200);
    return { email, password, cookie: cookiesFrom(response.headers['set-cookie']), response };
  }

  function session(cookie: string) {
    return t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
  }

  describe('email and password', () => {
    it('signs up into a session kept in an HttpOnly, SameSite=Lax cookie', async () => {
      await start();
      const { email, cookie, response } = await signUp();
      expect(response.json()).toMatchObject({
        user: { email, name: null, displayName: null, avatarUrl: null },
      });
      const setCookie = String(response.headers['set-cookie']);
      expect(setCookie).toMatch(/takes\.session_token=/);
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      expect(setCookie).not.toMatch(/Secure/i);
      const me = await session(cookie);
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ user: { email } });
    });

    it.each([
      [{ password: 'violet-mixdown-47' }, 'Email is required'],
      [{ email: '', password: 'violet-mixdown-47' }, 'Email is required'],
      [{ email: 'not-an-email', password: 'violet-mixdown-47' }, 'Invalid email address'],
      [{ email: 'a@example.com' }, 'Password is required'],
      [{ email: 'a@example.com', password: '' }, 'Password is required'],
      [{ email: 'a@example.com', password: '12345' }, 'Password must be at least 6 characters'],
      [
        { email: 'a@example.com', password: 'password' },
        'This password is one of the most common passwords. Please choose another.',
      ],
      [
        { email: 'a@example.com', password: 'Football' },
        'This password is one of the most common passwords. Please choose another.',
      ],
    ])('refuses sign-up %o with "%s"', async (payload, message) => {
      await start();
      const response = await post('/api/auth/sign-up/email', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toBe(message);
    });

    it('refuses a second account for the same email, in any letter case', async () => {
      await start();
      const { email } = await signUp();
      const again = await post('/api/auth/sign-up/email', {
        email: email.toUpperCase(),
        password: 'another-fine-pass',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        error: 'An account with this email already exists. Sign in instead.',
      });
    });

    it('signs in with a new session token each time, and refuses a wrong password', async () => {
      await start();
      const { email, password, cookie: first } = await signUp();
      const wrong = await post('/api/auth/sign-in/email', { email, password: 'not-the-password' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: 'Invalid email or password' });
      const unknown = await post('/api/auth/sign-in/email', { email: uniqueEmail(), password });
      expect(unknown.json()).toEqual({ error: 'Invalid email or password' });
      const right = await post('/api/auth/sign-in/email', {
        email: ` ${email.toUpperCase()} `,
        password,
      });
      expect(right.statusCode).toBe(200);
      const second = cookiesFrom(right.headers['set-cookie']);
      expect(second).not.toBe(first);
      expect((await session(second)).statusCode).toBe(200);
    });

    it('stops accepting the session cookie after sign-out', async () => {
      await start();
      const { cookie } = await signUp();
      const out = await post('/api/auth/sign-out', {}, { cookie });
      expect(out.statusCode).toBe(200);
      const after = await session(cookie);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ error: 'Not authenticated' });
    });

    it('answers 429 with a clear message after too many sign-in attempts for one email', async () => {
      await start();
      const email = uniqueEmail();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push(
          (await post('/api/auth/sign-in/email', { email, password: `wrong-guess-${i}` }))
            .statusCode,
        );
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      const limited = await post('/api/auth/sign-in/email', { email, password: 'wrong-again' });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        error: 'Too many attempts. Please wait a moment and try again.',
      });
    });

    it('refuses state-changing requests from another site', async () => {
      await start();
      const { cookie } = await signUp();
      const forged = await post(
        '/api/auth/sign-out',
        {},
        { cookie, origin: 'https://evil.example' },
      );
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toEqual({ error: 'Cross-site request refused' });
      const forgedLogin = await post(
        '/api/auth/sign-in/email',
        { email: 'a@example.com', password: 'whatever1' },
        { origin: 'https://evil.example' },
      );
      expect(forgedLogin.statusCode).toBe(403);
      expect((await session(cookie)).statusCode).toBe(200);
    });
  });

  describe('magic link with a 6-digit code', () => {
    async function sendCode(email: string) {
      const response = await post('/api/auth/magic-code/send', { email });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });
    }

    it('emails one message with a code and a link; the code signs in and creates the account', async () => {
      await start();
      const email = uniqueEmail();
      await sendCode(email);
      const mail = await smtp.waitFor(email);
      const code = codeFrom(mail);
      expect(linkFrom(mail)).toMatch(/^http:\/\/localhost:8080\/magic-link#token=/);
      const verified = await post('/api/auth/magic-code/verify', { email, code: ` ${code} ` });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json()).toMatchObject({ user: { email } });
      expect((await session(cookiesFrom(verified.headers['set-cookie']))).statusCode).toBe(200);
      const reused = await post('/api/auth/magic-code/verify', { email, code });
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toEqual({ error: 'Invalid or expired OTP code' });
    });

    it.each([
      [{ email: 'a@example.com' }, 'OTP code is required'],
      [{ email: 'a@example.com', code: '' }, 'OTP code is required'],
      [{ email: 'a@example.com', code: '12345' }, 'OTP must be 6 digits'],
      [{ email: 'a@example.com', code: '12a456' }, 'OTP must be 6 digits'],
      [{ code: '123456' }, 'Email is required'],
      [{ email: 'nope', code: '123456' }, 'Invalid email address'],
    ])('refuses verify %o with "%s"', async (payload, message) => {
      await start();
      const response = await post('/api/auth/magic-code/verify', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toBe(message);
    });

    it('accepts the right code after four wrong ones, but not after five', async () => {
      await start();
      const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');
      const four = uniqueEmail();
      await sendCode(four);
      const fourCode = codeFrom(await smtp.waitFor(four));
      for (let i = 0; i < 4; i++) {
        expect(
          (await post('/api/auth/magic-code/verify', { email: four, code: wrongCode(fourCode) }))
            .statusCode,
        ).toBe(400);
      }
      expect(
        (await post('/api/auth/magic-code/verify', { email: four, code: fourCode })).statusCode,
      ).toBe(200);

      const five = uniqueEmail();
      await sendCode(five);
      const fiveCode = codeFrom(await smtp.waitFor(five));
      for (let i = 0; i < 5; i++) {
        await post('/api/auth/magic-code/verify', { email: five, code: wrongCode(fiveCode) });
      }
      const late = await post('/api/auth/magic-code/verify', { email: five, code: fiveCode });
      expect(late.statusCode).toBe(400);
      expect(late.json()).toEqual({ error: 'Invalid or expired OTP code' });
    });

    it('expires the code after 10 minutes', async () => {
      await start();
      const email = uniqueEmail();
      await sendCode(email);
      const code = codeFrom(await smtp.waitFor(email));
      clock.advance(10 * 60 * 1000 + 1000);
      expect((await post('/api/auth/magic-code/verify', { email, code })).statusCode).toBe(400);
    });

    it('sends at most once a minute per email, and a new send replaces the old code', async () => {
      await start();
      const email = uniqueEmail();
      await sendCode(email);
      const oldCode = codeFrom(await smtp.waitFor(email, 1));
      const tooSoon = await post('/api/auth/magic-code/send', { email });
      expect(tooSoon.statusCode).toBe(429);
      expect(tooSoon.json<{ error: string }>().error).toMatch(/less than a minute ago/);
      clock.advance(61_000);
      await sendCode(email);
      const newCode = codeFrom(await smtp.waitFor(email, 2));
      if (newCode !== oldCode) {
        expect(
          (await post('/api/auth/magic-code/verify', { email, code: oldCode })).statusCode,
        ).toBe(400);
      }
      expect((await post('/api/auth/magic-code/verify', { email, code: newCode })).statusCode).toBe(
        200,
      );
    });

    it('gives unknown and known emails the same answer', async () => {
      await start();
      const { email } = await signUp();
      const known = await post('/api/auth/magic-code/send', { email });
      const unknown = await post('/api/auth/magic-code/send', { email: uniqueEmail() });
      expect([known.statusCode, known.body]).toEqual([unknown.statusCode, unknown.body]);
    });

    it('signs in once through the emailed link, then refuses it', async () => {
      await start();
      const email = uniqueEmail();
      await sendCode(email);
      const token = linkTokenFrom(await smtp.waitFor(email));
      const first = await post('/api/auth/magic-code/link', { token });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ user: { email } });
      expect((await session(cookiesFrom(first.headers['set-cookie']))).statusCode).toBe(200);
      const again = await post('/api/auth/magic-code/link', { token });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ error: 'Invalid or expired OTP code' });
      // The link and the code are one credential: the code is gone too.
      expect(
        (await post('/api/auth/magic-code/verify', { email, code: '123456' })).statusCode,
      ).toBe(400);
    });

    it('takes away a password someone set on an address they never proved', async () => {
      await start();
      const { email, password } = await signUp();
      await sendCode(email);
      const code = codeFrom(await smtp.waitFor(email));
      expect((await post('/api/auth/magic-code/verify', { email, code })).statusCode).toBe(200);
      expect((await post('/api/auth/sign-in/email', { email, password })).statusCode).toBe(401);
    });
  });
});
