import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedPlayerApp } from '@takes/contract';
import { api } from '../../../test/api';
import { buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

// Guessing keys: 20 wrong API keys from one address in 10 minutes lock that address out of the
// OpenSubsonic API (error 0), even with a right key, while other addresses carry on.
describe('OpenSubsonic wrong-key limit', () => {
  let t: TestApp;
  let owner: BuiltUser;
  let key: string;

  const ping = async (apiKey: string, remoteAddress: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/rest/ping.view?apiKey=${encodeURIComponent(apiKey)}&c=test&f=json`,
      remoteAddress,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      'subsonic-response': { status: string; error?: { code: number; message: string } };
    }>()['subsonic-response'];
    return body;
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t.deps.database.db, { name: 'Olivia Owner' });
    const response = await api(t, owner.cookie).post('/api/player-apps', {
      name: 'Car',
      latest_only: false,
    });
    expect(response.statusCode, response.body).toBe(201);
    key = response.json<CreatedPlayerApp>().api_key;
  });
  afterAll(() => t.close());

  it('locks an address out after 20 wrong keys, counted under concurrent guesses', async () => {
    expect((await ping(key, '203.0.113.7')).status).toBe('ok');
    // 26 guesses at once: exactly 20 are told the key is wrong (44), the rest are locked out (0).
    const guesses = await Promise.all(
      Array.from({ length: 26 }, (_, i) => ping(`wrong-key-${i}`, '203.0.113.7')),
    );
    const codes = guesses.map((g) => g.error?.code).sort((a, b) => (b ?? 0) - (a ?? 0));
    expect(codes).toEqual([...Array<number>(20).fill(44), ...Array<number>(6).fill(0)]);
    // The 21st request from that address is refused before the key is looked at, right key or not.
    for (const apiKey of ['wrong-key-20', key]) {
      const locked = await ping(apiKey, '203.0.113.7');
      expect(locked.status).toBe('failed');
      expect(locked.error).toEqual({
        code: 0,
        message: 'Too many wrong API keys from this address. Try again later.',
      });
    }
    // Another address is not affected, and a right key never counts.
    for (let i = 0; i < 25; i++) expect((await ping(key, '198.51.100.4')).status).toBe('ok');
    expect((await ping('wrong-again', '198.51.100.4')).error?.code).toBe(44);
  });
});
