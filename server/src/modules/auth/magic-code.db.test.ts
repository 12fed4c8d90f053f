import { describe, expect, it } from 'vitest';
import { authRequests, mailAppSuite } from '../../../test/mail-app';
import { codeFrom, linkFrom, linkTokenFrom } from '../../../test/smtp';
import {
  cookiesFrom,
  type TestClock,
  type TestApp,
  type TestAppOptions,
} from '../../../test/test-app';

const { smtp, uniqueEmail, start: startMailApp } = mailAppSuite('musician');

describe('accounts and sign-in', () => {
  let t: TestApp;
  let clock: TestClock;
  async function start(options: TestAppOptions = {}) {
    ({ t, clock } = await startMailApp(options));
  }

  const { post, signUp, session } = authRequests(() => t, uniqueEmail);

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
      expect(reused.json()).toEqual({ error: 'Invalid or expired OTP code', code: 'invalid' });
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
      expect(late.json()).toEqual({ error: 'Invalid or expired OTP code', code: 'invalid' });
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
      expect(again.json()).toEqual({ error: 'Invalid or expired OTP code', code: 'invalid' });
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
