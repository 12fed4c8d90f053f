import { afterEach, describe, expect, it } from 'vitest';
import { OAUTH_ERROR_MESSAGES, oidcOnlyMessage, SIGNUP_MESSAGES } from '@takes/contract';
import { buildUser } from '../../../test/factories';
import {
  signInAtProvider,
  startTestOidcProvider,
  type TestOidcProvider,
  type TestOidcProviderOptions,
} from '../../../test/oidc-provider';
import { cookiesFrom, createTestApp, type TestApp } from '../../../test/test-app';

const APP = 'http://localhost:8080';
const CALLBACK = `${APP}/api/auth/callback/oidc`;

/**
 * Single sign-on against a real OpenID provider (oidc-provider) on 127.0.0.1: discovery, the
 * authorization code with PKCE, state, nonce and the ID token's signature are all real.
 */
describe('Sign in with single sign-on (OpenID Connect)', () => {
  let idp: TestOidcProvider;
  let t: TestApp;

  async function start(
    env: Record<string, string> = {},
    idpOptions: Partial<TestOidcProviderOptions> = {},
  ) {
    idp = await startTestOidcProvider({ redirectUri: CALLBACK, ...idpOptions });
    t = await createTestApp({
      env: {
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_NAME: 'Authentik',
        ...env,
      },
    });
  }
  afterEach(async () => {
    await t?.close();
    await idp?.close();
  });

  async function startSignIn() {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/auth/social/oidc',
      payload: { callback_url: '/dashboard' },
      headers: { origin: APP },
    });
    expect(started.statusCode, started.body).toBe(200);
    return {
      url: new URL(started.json<{ url: string }>().url),
      cookie: cookiesFrom(started.headers['set-cookie']),
    };
  }

  /** Signs in at the provider as `login`; answers where the app's callback sends the browser. */
  async function signIn(login: string) {
    const { url, cookie } = await startSignIn();
    const back = await signInAtProvider(url.toString(), login);
    const callback = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie },
    });
    return { callback, back, cookie };
  }

  async function sessionEmail(setCookie: string | string[] | undefined) {
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: cookiesFrom(setCookie) },
    });
    return session.json<{ user: { email: string } | null }>().user?.email ?? null;
  }

  function loginError(location: string | undefined) {
    const url = new URL(location ?? '', APP);
    expect(url.pathname).toBe('/login');
    return {
      code: url.searchParams.get('error'),
      message: url.searchParams.get('error_description'),
    };
  }

  const users = () => t.deps.database.db.selectFrom('users').select(['id', 'email']).execute();
  const accounts = () =>
    t.deps.database.db
      .selectFrom('accounts')
      .select(['provider_id', 'account_id', 'user_id'])
      .where('provider_id', '=', 'oidc')
      .execute();

  it('sends PKCE, state and nonce, makes the account and a session, and signs the same person in again', async () => {
    await start();
    idp.addAccount('ana', { email: 'Ana@Studio.example', email_verified: true, name: 'Ana' });
    const { url } = await startSignIn();
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'email', 'profile']),
    );

    const first = await signIn('ana');
    expect(first.callback.statusCode, first.callback.body).toBe(302);
    expect(first.callback.headers.location).toBe('/dashboard');
    expect(await sessionEmail(first.callback.headers['set-cookie'])).toBe('ana@studio.example');

    const again = await signIn('ana');
    expect(again.callback.headers.location).toBe('/dashboard');
    expect(await sessionEmail(again.callback.headers['set-cookie'])).toBe('ana@studio.example');
    const all = await users();
    expect(all).toHaveLength(1);
    expect(await accounts()).toEqual([
      { provider_id: 'oidc', account_id: 'ana', user_id: all[0]?.id },
    ]);
  });

  it('links to an existing account when the provider has verified the email', async () => {
    await start();
    const existing = await buildUser(t.deps.database.db, { email: 'bo@studio.example' });
    idp.addAccount('bo-at-idp', { email: 'bo@studio.example', email_verified: true });
    const { callback } = await signIn('bo-at-idp');
    expect(callback.headers.location).toBe('/dashboard');
    expect(await sessionEmail(callback.headers['set-cookie'])).toBe('bo@studio.example');
    expect(await accounts()).toEqual([
      { provider_id: 'oidc', account_id: 'bo-at-idp', user_id: existing.id },
    ]);
  });

  it('never links an unverified email to an existing account, nor takes it over', async () => {
    await start();
    const existing = await buildUser(t.deps.database.db, { email: 'cy@studio.example' });
    idp.addAccount('mallory', { email: 'cy@studio.example', email_verified: false });
    const { callback } = await signIn('mallory');
    expect(loginError(callback.headers.location)).toEqual({
      code: 'account_not_linked',
      message: OAUTH_ERROR_MESSAGES.account_not_linked,
    });
    expect(cookiesFrom(callback.headers['set-cookie'])).not.toContain('session_token=');
    expect(await accounts()).toEqual([]);
    expect(await users()).toEqual([{ id: existing.id, email: 'cy@studio.example' }]);
  });

  it('refuses a wrong state, and the state of another browser', async () => {
    await start();
    idp.addAccount('di', { email: 'di@studio.example', email_verified: true });
    const { url, cookie } = await startSignIn();
    const back = await signInAtProvider(url.toString(), 'di');
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    const wrong = await t.app.inject({
      method: 'GET',
      url: `${forged.pathname}${forged.search}`,
      headers: { cookie },
    });
    expect(wrong.statusCode).toBe(302);
    expect(loginError(wrong.headers.location)).toEqual({
      code: 'state_mismatch',
      message: OAUTH_ERROR_MESSAGES.state_mismatch,
    });
    // The right state without the cookie of the browser that started the sign-in.
    const elsewhere = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(loginError(elsewhere.headers.location).code).toBe('state_mismatch');
    expect(await users()).toEqual([]);
  });

  it('refuses a reused code', async () => {
    await start();
    idp.addAccount('ed', { email: 'ed@studio.example', email_verified: true });
    const first = await signIn('ed');
    expect(first.callback.headers.location).toBe('/dashboard');
    // A fresh sign-in (its own state) handed the code already spent.
    const { url, cookie } = await startSignIn();
    const replay = await t.app.inject({
      method: 'GET',
      url: `/api/auth/callback/oidc?code=${first.back.searchParams.get('code')}&state=${url.searchParams.get('state')}`,
      headers: { cookie },
    });
    expect(loginError(replay.headers.location)).toEqual({
      code: 'invalid_code',
      message: OAUTH_ERROR_MESSAGES.invalid_code,
    });
  });

  it('refuses an expired code', async () => {
    await start({}, { codeTtlSeconds: 1 });
    idp.addAccount('flo', { email: 'flo@studio.example', email_verified: true });
    const { url, cookie } = await startSignIn();
    const back = await signInAtProvider(url.toString(), 'flo');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie },
    });
    expect(loginError(late.headers.location).code).toBe('invalid_code');
    expect(await users()).toEqual([]);
  });

  it('refuses an ID token whose signature does not match the issuer keys', async () => {
    await start();
    await idp.publishForeignKeys();
    idp.addAccount('gus', { email: 'gus@studio.example', email_verified: true });
    const { callback } = await signIn('gus');
    expect(loginError(callback.headers.location)).toEqual({
      code: 'unable_to_get_user_info',
      message: OAUTH_ERROR_MESSAGES.unable_to_get_user_info,
    });
    expect(await users()).toEqual([]);
  });

  it('refuses an ID token that carries another nonce than the one this sign-in sent', async () => {
    await start();
    idp.addAccount('gia', { email: 'gia@studio.example', email_verified: true });
    const { url, cookie } = await startSignIn();
    // The provider is asked with a replayed nonce: its ID token then binds to another flow.
    url.searchParams.set('nonce', 'a-nonce-from-another-sign-in');
    const back = await signInAtProvider(url.toString(), 'gia');
    const callback = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie },
    });
    expect(loginError(callback.headers.location).code).toBe('unable_to_get_user_info');
    expect(await users()).toEqual([]);
  });

  it('obeys the sign-up policy: with SIGNUPS=closed a newcomer is refused with its message', async () => {
    await start({ SIGNUPS: 'closed' });
    idp.addAccount('hal', { email: 'hal@studio.example', email_verified: true });
    const { callback } = await signIn('hal');
    expect(loginError(callback.headers.location).message).toBe(SIGNUP_MESSAGES.closed);
    expect(await users()).toEqual([]);
  });

  it('with OIDC_ONLY, refuses the other ways in (403) and still signs in through the provider', async () => {
    await start({
      OIDC_ONLY: 'true',
      DEMO_ENABLED: 'true',
      GOOGLE_CLIENT_ID: 'takes.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'shh',
    });
    const message = oidcOnlyMessage('Authentik');
    const refused = [
      ['/api/auth/sign-up/email', { email: 'x@studio.example', password: 'long enough pass' }],
      ['/api/auth/sign-in/email', { email: 'x@studio.example', password: 'long enough pass' }],
      ['/api/auth/magic-code/send', { email: 'x@studio.example' }],
      ['/api/auth/magic-code/verify', { email: 'x@studio.example', code: '123456' }],
      ['/api/auth/magic-code/link', { token: 'a-token-from-an-old-email' }],
      ['/api/auth/social/google', { callback_url: '/dashboard' }],
    ] as const;
    for (const [url, payload] of refused) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        payload,
        headers: { origin: APP },
      });
      expect(response.statusCode, url).toBe(403);
      expect(response.json<{ error: string }>().error, url).toBe(message);
    }
    const providers = await t.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(providers.json()).toMatchObject({
      oidc: { name: 'Authentik' },
      oidc_only: true,
      demo: false,
    });
    // No demo accounts either: the demo is off.
    const demo = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: APP },
    });
    expect(demo.statusCode).toBe(404);
    idp.addAccount('ivy', { email: 'ivy@studio.example', email_verified: true });
    const { callback } = await signIn('ivy');
    expect(await sessionEmail(callback.headers['set-cookie'])).toBe('ivy@studio.example');
  });
});
