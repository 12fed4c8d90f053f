import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { MockAgent } from 'undici';
import { expect } from 'vitest';
import { ORIGIN } from './api';
import { codeFrom, linkTokenFrom, type TestSmtp } from './smtp';
import { cookiesFrom, type TestApp } from './test-app';

/** Every path into a new account, driven over HTTP as a browser would (issue 48's sign-up policy). */

export const GOOGLE_ENV = {
  GOOGLE_CLIENT_ID: 'takes-client.apps.googleusercontent.com',
  GOOGLE_CLIENT_SECRET: 'shh',
};
export const APPLE_ENV = { APPLE_CLIENT_ID: 'com.takes.web', APPLE_CLIENT_SECRET: 'apple-jwt' };

function post(t: TestApp, url: string, payload: object, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
  });
}

export function passwordSignUp(t: TestApp, email: string, cookie?: string) {
  return post(t, '/api/auth/sign-up/email', { email, password: 'violet-mixdown-47' }, cookie);
}

/** Asks for an emailed code and signs in with it. */
export async function codeSignUp(
  t: TestApp,
  smtp: Pick<TestSmtp, 'waitFor'>,
  email: string,
  cookie?: string,
) {
  const sent = await post(t, '/api/auth/magic-code/send', { email });
  expect(sent.statusCode, sent.body).toBe(200);
  const code = codeFrom(await smtp.waitFor(email));
  return post(t, '/api/auth/magic-code/verify', { email, code }, cookie);
}

/** Asks for an emailed link and signs in with its token. */
export async function linkSignUp(t: TestApp, smtp: Pick<TestSmtp, 'waitFor'>, email: string) {
  const sent = await post(t, '/api/auth/magic-code/send', { email });
  expect(sent.statusCode, sent.body).toBe(200);
  const token = linkTokenFrom(await smtp.waitFor(email));
  return post(t, '/api/auth/magic-code/link', { token });
}

export function startDemo(t: TestApp) {
  return post(t, '/api/auth/demo', {});
}

/** Opens an invite link as the join page does; answers the response (with the pass cookie). */
export function viewInviteLink(t: TestApp, key: string) {
  return post(t, '/api/invite-links/view', { key });
}

/**
 * A Google or Apple sign-in whose provider (intercepted: their servers cannot run here) answers
 * an ID token for `email`. Answers the callback's response (a redirect).
 */
export async function socialSignIn(
  t: TestApp,
  agent: MockAgent,
  provider: 'google' | 'apple',
  claims: { sub: string; email: string; email_verified: boolean },
  cookie?: string,
) {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256', use: 'sig' };
  const google = provider === 'google';
  const idToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k' })
    .setIssuer(google ? 'https://accounts.google.com' : 'https://appleid.apple.com')
    .setAudience(google ? GOOGLE_ENV.GOOGLE_CLIENT_ID : APPLE_ENV.APPLE_CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  const tokens = { access_token: 'a', id_token: idToken, expires_in: 3600, token_type: 'Bearer' };
  const json = { headers: { 'content-type': 'application/json' } };
  if (google) {
    agent
      .get('https://oauth2.googleapis.com')
      .intercept({ path: '/token', method: 'POST' })
      .reply(200, tokens, json);
    agent
      .get('https://www.googleapis.com')
      .intercept({ path: '/oauth2/v3/certs', method: 'GET' })
      .reply(200, { keys: [jwk] }, json);
  } else {
    const apple = agent.get('https://appleid.apple.com');
    apple.intercept({ path: '/auth/token', method: 'POST' }).reply(200, tokens, json);
    apple.intercept({ path: '/auth/keys', method: 'GET' }).reply(200, { keys: [jwk] }, json);
  }
  const started = await post(t, `/api/auth/social/${provider}`, { callback_url: '/dashboard' });
  expect(started.statusCode, started.body).toBe(200);
  const state = new URL(started.json<{ url: string }>().url).searchParams.get('state') ?? '';
  const stateCookie = cookiesFrom(started.headers['set-cookie']);
  const both = [stateCookie, cookie].filter(Boolean).join('; ');
  if (google) {
    return t.app.inject({
      method: 'GET',
      url: `/api/auth/callback/google?code=c&state=${state}`,
      headers: { cookie: both },
    });
  }
  // Apple posts cross-site (no cookies), and better-auth redirects to a GET of itself.
  const posted = await t.app.inject({
    method: 'POST',
    url: '/api/auth/callback/apple',
    payload: new URLSearchParams({ code: 'c', state }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://appleid.apple.com',
    },
  });
  const location = new URL(String(posted.headers.location), ORIGIN);
  if (!location.pathname.startsWith('/api/auth/callback/apple')) return posted;
  return t.app.inject({
    method: 'GET',
    url: location.pathname + location.search,
    headers: { cookie: both },
  });
}

/** What exists for an address: users, their accounts and sessions (a refusal leaves none). */
export async function rowsFor(t: TestApp, email: string) {
  const db = t.deps.database.db;
  const users = await db.selectFrom('users').select('id').where('email', '=', email).execute();
  const ids = users.map((user) => user.id);
  if (ids.length === 0) return { users: 0, accounts: 0, sessions: 0 };
  const accounts = await db
    .selectFrom('accounts')
    .select('id')
    .where('user_id', 'in', ids)
    .execute();
  const sessions = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', 'in', ids)
    .execute();
  return { users: users.length, accounts: accounts.length, sessions: sessions.length };
}
