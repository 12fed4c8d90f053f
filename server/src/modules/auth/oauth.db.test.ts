import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cookiesFrom, createTestApp, type TestApp } from '../../../test/test-app';

const CLIENT_ID = 'takes-client.apps.googleusercontent.com';
const ORIGIN = 'http://localhost:8080';

/**
 * Google's token and key endpoints are intercepted (the only mocks allowed: Google's servers
 * cannot run here); everything on our side is real.
 */
describe('Google sign-in callback', () => {
  let t: TestApp;
  let agent: MockAgent;
  let previous: Dispatcher;
  const tokenRequests: string[] = [];

  beforeEach(async () => {
    previous = getGlobalDispatcher();
    agent = new MockAgent();
    agent.disableNetConnect();
    setGlobalDispatcher(agent);
    tokenRequests.length = 0;
    t = await createTestApp({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: 'shh' } });
  });
  afterEach(async () => {
    await t.close();
    await agent.close();
    setGlobalDispatcher(previous);
  });

  async function googleWillAnswer(claims: Record<string, unknown>) {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer('https://accounts.google.com')
      .setAudience(CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const google = agent.get('https://oauth2.googleapis.com');
    google
      .intercept({ path: '/token', method: 'POST' })
      .reply((options) => {
        tokenRequests.push(
          typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
        );
        return {
          statusCode: 200,
          data: {
            access_token: 'ya29.token',
            refresh_token: '1//refresh',
            expires_in: 3600,
            id_token: idToken,
            token_type: 'Bearer',
            scope: 'openid email profile',
          },
          responseOptions: { headers: { 'content-type': 'application/json' } },
        };
      })
      .persist();
    agent
      .get('https://www.googleapis.com')
      .intercept({ path: '/oauth2/v3/certs', method: 'GET' })
      .reply(200, { keys: [jwk] }, { headers: { 'content-type': 'application/json' } })
      .persist();
  }

  async function startSignIn() {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/auth/social/google',
      payload: { callback_url: '/dashboard' },
      headers: { origin: ORIGIN },
    });
    expect(started.statusCode, started.body).toBe(200);
    const url = new URL(started.json<{ url: string }>().url);
    return {
      state: url.searchParams.get('state') ?? '',
      cookie: cookiesFrom(started.headers['set-cookie']),
    };
  }

  it('creates an account keyed by provider and Google user id, and signs in', async () => {
    await googleWillAnswer({
      sub: 'google-user-42',
      email: 'ana@gmail.example',
      email_verified: true,
      name: 'Ana Gómez',
    });
    const { state, cookie } = await startSignIn();
    const callback = await t.app.inject({
      method: 'GET',
      url: `/api/auth/callback/google?code=auth-code-1&state=${state}`,
      headers: { cookie },
    });
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/dashboard');
    expect(tokenRequests[0]).toContain('code=auth-code-1');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: cookiesFrom(callback.headers['set-cookie']) },
    });
    expect(session.json()).toMatchObject({
      user: { email: 'ana@gmail.example', name: 'Ana Gómez' },
    });
    const accounts = await t.deps.database.db
      .selectFrom('accounts')
      .select(['provider_id', 'account_id'])
      .execute();
    expect(accounts).toEqual([{ provider_id: 'google', account_id: 'google-user-42' }]);

    // Signing in again with the same Google identity reuses the account.
    const again = await startSignIn();
    await t.app.inject({
      method: 'GET',
      url: `/api/auth/callback/google?code=auth-code-2&state=${again.state}`,
      headers: { cookie: again.cookie },
    });
    expect(await t.deps.database.db.selectFrom('users').select('email').execute()).toHaveLength(1);
  });

  it('refuses a callback whose state does not match the one it issued', async () => {
    await googleWillAnswer({
      sub: 'google-user-43',
      email: 'bo@gmail.example',
      email_verified: true,
      name: 'Bo',
    });
    const { cookie } = await startSignIn();
    const callback = await t.app.inject({
      method: 'GET',
      url: '/api/auth/callback/google?code=x&state=forged-state',
      headers: { cookie },
    });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toMatch(/error/);
    expect(await t.deps.database.db.selectFrom('users').select('id').execute()).toEqual([]);
  });
});

describe('Sign in with Apple callback', () => {
  const APPLE_ID = 'com.takes.web';
  let t: TestApp;
  let agent: MockAgent;
  let previous: Dispatcher;

  beforeEach(async () => {
    previous = getGlobalDispatcher();
    agent = new MockAgent();
    agent.disableNetConnect();
    setGlobalDispatcher(agent);
    t = await createTestApp({
      env: { APPLE_CLIENT_ID: APPLE_ID, APPLE_CLIENT_SECRET: 'apple-client-secret-jwt' },
    });
  });
  afterEach(async () => {
    await t.close();
    await agent.close();
    setGlobalDispatcher(previous);
  });

  it("accepts Apple's form post, and signs in the Apple identity", async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'apple-key', alg: 'RS256', use: 'sig' };
    const idToken = await new SignJWT({
      sub: '001234.apple-user',
      email: 'cy@privaterelay.appleid.example',
      email_verified: true,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'apple-key' })
      .setIssuer('https://appleid.apple.com')
      .setAudience(APPLE_ID)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const apple = agent.get('https://appleid.apple.com');
    apple
      .intercept({ path: '/auth/token', method: 'POST' })
      .reply(
        200,
        { access_token: 'apple-access', id_token: idToken, expires_in: 3600, token_type: 'Bearer' },
        { headers: { 'content-type': 'application/json' } },
      )
      .persist();
    apple
      .intercept({ path: '/auth/keys', method: 'GET' })
      .reply(200, { keys: [jwk] }, { headers: { 'content-type': 'application/json' } })
      .persist();

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/auth/social/apple',
      payload: { callback_url: '/dashboard' },
      headers: { origin: ORIGIN },
    });
    expect(started.statusCode, started.body).toBe(200);
    const authorize = new URL(started.json<{ url: string }>().url);
    expect(authorize.origin + authorize.pathname).toBe('https://appleid.apple.com/auth/authorize');
    expect(authorize.searchParams.get('response_mode')).toBe('form_post');
    const state = authorize.searchParams.get('state') ?? '';
    const cookie = cookiesFrom(started.headers['set-cookie']);

    // Apple posts the result cross-site, so the browser sends no Lax cookies with it.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/callback/apple',
      payload: new URLSearchParams({ code: 'apple-code', state }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://appleid.apple.com',
      },
    });
    expect(posted.statusCode, posted.body).toBe(302);
    let location = String(posted.headers.location);
    let cookies = cookie;
    if (location.includes('/api/auth/callback/apple')) {
      const followed = await t.app.inject({
        method: 'GET',
        url: new URL(location, ORIGIN).pathname + new URL(location, ORIGIN).search,
        headers: { cookie },
      });
      location = String(followed.headers.location);
      cookies = cookiesFrom(followed.headers['set-cookie']);
    }
    expect(location).toBe('/dashboard');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: cookies },
    });
    expect(session.json()).toMatchObject({ user: { email: 'cy@privaterelay.appleid.example' } });
    expect(
      await t.deps.database.db
        .selectFrom('accounts')
        .select(['provider_id', 'account_id'])
        .execute(),
    ).toEqual([{ provider_id: 'apple', account_id: '001234.apple-user' }]);
  });
});
