import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../../../test/smtp';
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

describe('accounts and sign-in: profile and social sign-in', () => {
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

  describe('profile', () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );

    function upload(cookie: string, content: Buffer, filename: string) {
      const boundary = '----takesboundary';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/profile/avatar',
        payload: body,
        headers: {
          cookie,
          origin: ORIGIN,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
    }

    it('edits the display name and stores an avatar checked by content', async () => {
      await start();
      const { cookie } = await signUp();
      const named = await t.app.inject({
        method: 'PATCH',
        url: '/api/profile',
        payload: { displayName: '  Ana B.  ' },
        headers: { cookie, origin: ORIGIN },
      });
      expect(named.json()).toMatchObject({ displayName: 'Ana B.', avatarUrl: null });
      const uploaded = await upload(cookie, png, 'me.png');
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const avatarUrl = uploaded.json<{ avatarUrl: string }>().avatarUrl;
      const image = await t.app.inject({ method: 'GET', url: avatarUrl });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(image.rawPayload, png)).toBe(0);
      expect((await session(cookie)).json()).toMatchObject({
        user: { displayName: 'Ana B.', avatarUrl },
      });
    });

    it('refuses a non-image named .png and an image over 2 MB, storing nothing', async () => {
      await start();
      const { cookie } = await signUp();
      const fake = await upload(
        cookie,
        Buffer.from('<svg onload="alert(1)"></svg>'.repeat(3)),
        'evil.png',
      );
      expect(fake.statusCode).toBe(415);
      expect(fake.json()).toEqual({ error: 'The avatar must be a PNG, JPEG or WebP image.' });
      // Many chunks after the refusal must not surface as an unhandled stream error.
      const longFake = await upload(cookie, Buffer.alloc(600_000, 'not an image '), 'long.png');
      expect(longFake.statusCode).toBe(415);
      const huge = await upload(
        cookie,
        Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]),
        'big.png',
      );
      expect(huge.statusCode).toBe(413);
      expect(await t.deps.storage.list('avatars/')).toEqual([]);
    });

    it('requires a session', async () => {
      await start();
      const response = await t.app.inject({ method: 'GET', url: '/api/profile' });
      expect(response.statusCode).toBe(401);
    });

    it('changes the password and signs out every other session', async () => {
      await start();
      const { email, password, cookie } = await signUp();
      const other = cookiesFrom(
        (await post('/api/auth/sign-in/email', { email, password })).headers['set-cookie'],
      );
      const wrong = await post(
        '/api/auth/change-password',
        { currentPassword: 'nope-nope', newPassword: 'amber-bounce-93' },
        { cookie },
      );
      expect(wrong.json()).toEqual({ error: 'Current password is incorrect' });
      const changed = await post(
        '/api/auth/change-password',
        { currentPassword: password, newPassword: 'amber-bounce-93' },
        { cookie },
      );
      expect(changed.statusCode, changed.body).toBe(200);
      const revoked = await post('/api/auth/sign-out-others', {}, { cookie });
      expect(revoked.json()).toEqual({ ok: true, revoked: 1 });
      expect((await session(other)).statusCode).toBe(401);
      expect((await session(cookie)).statusCode).toBe(200);
      expect(
        (await post('/api/auth/sign-in/email', { email, password: 'amber-bounce-93' })).statusCode,
      ).toBe(200);
    });
  });

  describe('social sign-in', () => {
    it('says clearly when a provider is not configured', async () => {
      await start();
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/providers' })).json()).toEqual({
        google: false,
        apple: false,
        demo: true,
      });
      const response = await post('/api/auth/social/google', { callbackURL: '/dashboard' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'Google sign-in is not configured on this server' });
    });

    it('sends people to Google asking for offline access and the consent prompt', async () => {
      await start({
        env: {
          GOOGLE_CLIENT_ID: 'takes-client.apps.googleusercontent.com',
          GOOGLE_CLIENT_SECRET: 'shh',
        },
      });
      const response = await post('/api/auth/social/google', { callbackURL: '/dashboard' });
      expect(response.statusCode, response.body).toBe(200);
      const url = new URL(response.json<{ url: string }>().url);
      expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: 'takes-client.apps.googleusercontent.com',
        access_type: 'offline',
        prompt: 'consent',
        response_type: 'code',
        redirect_uri: 'http://localhost:8080/api/auth/callback/google',
      });
      expect(url.searchParams.get('state')).toBeTruthy();
      expect(url.searchParams.get('scope')).toContain('email');
    });
  });
});
