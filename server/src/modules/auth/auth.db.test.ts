import { describe, expect, it } from 'vitest';
import { ORIGIN } from '../../../test/api';
import { authRequests, mailAppSuite } from '../../../test/mail-app';
import { cookiesFrom, type TestApp, type TestAppOptions } from '../../../test/test-app';

const { uniqueEmail, start: startMailApp } = mailAppSuite('musician');

describe('accounts and sign-in', () => {
  let t: TestApp;
  async function start(options: TestAppOptions = {}) {
    ({ t } = await startMailApp(options));
  }

  const { post, signUp, session } = authRequests(() => t, uniqueEmail);
  /** Whether the cookie is a live session: the probe answers 200 either way, with or without a user. */
  async function signedIn(cookie: string): Promise<boolean> {
    const response = await session(cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ user: unknown }>().user !== null;
  }

  describe('email and password', () => {
    it('signs up into a session kept in an HttpOnly, SameSite=Lax cookie', async () => {
      await start();
      const { email, cookie, response } = await signUp();
      expect(response.json()).toMatchObject({
        user: { email, name: null, display_name: null, avatar_url: null },
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
        code: 'conflict',
      });
    });

    it('signs in with a new session token each time, and refuses a wrong password', async () => {
      await start();
      const { email, password, cookie: first } = await signUp();
      const wrong = await post('/api/auth/sign-in/email', { email, password: 'not-the-password' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'unauthenticated' });
      const unknown = await post('/api/auth/sign-in/email', { email: uniqueEmail(), password });
      expect(unknown.json()).toEqual({
        error: 'Invalid email or password',
        code: 'unauthenticated',
      });
      const right = await post('/api/auth/sign-in/email', {
        email: ` ${email.toUpperCase()} `,
        password,
      });
      expect(right.statusCode).toBe(200);
      const second = cookiesFrom(right.headers['set-cookie']);
      expect(second).not.toBe(first);
      expect(await signedIn(second)).toBe(true);
    });

    it('stops accepting the session cookie after sign-out', async () => {
      await start();
      const { cookie } = await signUp();
      const out = await post('/api/auth/sign-out', {}, { cookie });
      expect(out.statusCode).toBe(200);
      const after = await session(cookie);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual({ user: null, expires_at: null });
    });

    it('reads the session on every request: renews it a day on, ends it when expired or forged', async () => {
      await start();
      const { cookie } = await signUp();
      const db = t.deps.database.db;
      const DAY = 24 * 60 * 60 * 1000;
      const expiresAt = async () =>
        (await db.selectFrom('sessions').select('expires_at').executeTakeFirst())?.expires_at;
      const setExpiry = (at: number) =>
        db
          .updateTable('sessions')
          .set({ expires_at: new Date(at).toISOString() })
          .execute();
      // Renewed less than a day ago: answered from the row as it is.
      await setExpiry(Date.now() + 30 * DAY - 60_000);
      const before = String(await expiresAt());
      expect(await signedIn(cookie)).toBe(true);
      expect(String(await expiresAt())).toBe(before);
      // Last renewed two days ago: used now, it gets a fresh 30 days.
      await setExpiry(Date.now() + 28 * DAY);
      expect(await signedIn(cookie)).toBe(true);
      const renewed = new Date(String(await expiresAt())).getTime();
      expect(renewed).toBeGreaterThan(Date.now() + 29 * DAY);
      // A cookie whose token was changed (its signature no longer matches) is nobody.
      const forged = cookie.replace(
        /session_token=(.)/,
        (_m, c: string) => `session_token=${c === 'a' ? 'b' : 'a'}`,
      );
      expect(await signedIn(forged)).toBe(false);
      // Expired: refused, and the row is gone.
      await setExpiry(Date.now() - 1000);
      expect(await signedIn(cookie)).toBe(false);
      expect(await expiresAt()).toBeUndefined();
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
        code: 'rate_limited',
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
      expect(forged.json()).toEqual({ error: 'Cross-site request refused', code: 'forbidden' });
      const forgedLogin = await post(
        '/api/auth/sign-in/email',
        { email: 'a@example.com', password: 'whatever1' },
        { origin: 'https://evil.example' },
      );
      expect(forgedLogin.statusCode).toBe(403);
      expect(await signedIn(cookie)).toBe(true);
    });
  });

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
        payload: { display_name: '  Ana B.  ' },
        headers: { cookie, origin: ORIGIN },
      });
      expect(named.json()).toMatchObject({ display_name: 'Ana B.', avatar_url: null });
      const uploaded = await upload(cookie, png, 'me.png');
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const avatarUrl = uploaded.json<{ avatar_url: string }>().avatar_url;
      const image = await t.app.inject({ method: 'GET', url: avatarUrl });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(image.rawPayload, png)).toBe(0);
      expect((await session(cookie)).json()).toMatchObject({
        user: { display_name: 'Ana B.', avatar_url: avatarUrl },
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
      expect(fake.json()).toEqual({
        error: 'The avatar must be a PNG, JPEG or WebP image.',
        code: 'unsupported',
      });
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
        { current_password: 'nope-nope', new_password: 'amber-bounce-93' },
        { cookie },
      );
      expect(wrong.json()).toEqual({ error: 'Current password is incorrect', code: 'invalid' });
      const changed = await post(
        '/api/auth/change-password',
        { current_password: password, new_password: 'amber-bounce-93' },
        { cookie },
      );
      expect(changed.statusCode, changed.body).toBe(200);
      const revoked = await post('/api/auth/sign-out-others', {}, { cookie });
      expect(revoked.json()).toEqual({ ok: true, revoked: 1 });
      expect(await signedIn(other)).toBe(false);
      expect(await signedIn(cookie)).toBe(true);
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
        oidc: null,
        oidc_only: false,
        signups: 'open',
      });
      const response = await post('/api/auth/social/google', { callback_url: '/dashboard' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: 'Google sign-in is not configured on this server',
        code: 'unavailable',
      });
      const sso = await post('/api/auth/social/oidc', { callback_url: '/dashboard' });
      expect(sso.statusCode).toBe(503);
      expect(sso.json()).toEqual({
        error: 'Single sign-on is not configured on this server',
        code: 'unavailable',
      });
    });

    it('sends people to Google asking for offline access and the consent prompt', async () => {
      await start({
        env: {
          GOOGLE_CLIENT_ID: 'takes-client.apps.googleusercontent.com',
          GOOGLE_CLIENT_SECRET: 'shh',
        },
      });
      const response = await post('/api/auth/social/google', { callback_url: '/dashboard' });
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
