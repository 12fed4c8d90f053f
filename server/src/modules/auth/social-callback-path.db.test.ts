import { CALLBACK_URL_INVALID } from '@takes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Invalid } from '../../errors';
import { createTestApp, type TestApp } from '../../../test/test-app';

const ORIGIN = 'http://localhost:8080';

/**
 * Where a provider sends the visitor back after a social sign-in is a path on this site only:
 * browsers read `/\evil.com` (and a tab or newline inside `//`) as `//evil.com`, another site.
 */
describe('social sign-in: the callback path', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        GOOGLE_CLIENT_ID: 'takes-client.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET: 's',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const start = (callbackURL: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/social/google',
      payload: { callback_url: callbackURL },
      headers: { origin: ORIGIN },
    });

  it.each([
    ['/\\evil.com'],
    ['/\\\\evil.com'],
    ['\\/evil.com'],
    ['//evil.com'],
    ['/%5Cevil.com'],
    ['/%5cevil.com'],
    ['/%2F/evil.com'],
    ['/%252F/x%255Cevil.com'],
    ['/\t/evil.com'],
    ['/\r\n/evil.com'],
    ['https://evil.com'],
    ['evil.com'],
    ['/%E0%A4%A'],
    [''],
  ])('refuses %j with 400 and says why', async (callbackURL) => {
    const response = await start(callbackURL);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe(CALLBACK_URL_INVALID);
  });

  it('refuses a callback over 2000 characters', async () => {
    const response = await start(`/${'a'.repeat(2000)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe('callback_url is too long');
  });

  it.each([['/dashboard'], ['/invite/abc?x=1#top'], ['/share/K%20L'], ['/a//b']])(
    'accepts %j',
    async (callbackURL) => {
      const response = await start(callbackURL);
      expect(response.statusCode, response.body).toBe(200);
      expect(new URL(response.json<{ url: string }>().url).origin).toBe(
        'https://accounts.google.com',
      );
    },
  );

  it('is refused by the service too, whoever calls it', async () => {
    await expect(
      t.services.authService.socialSignInUrl(
        'google',
        '/\\evil.com',
        new Headers({ origin: ORIGIN }),
      ),
    ).rejects.toBeInstanceOf(Invalid);
  });
});
