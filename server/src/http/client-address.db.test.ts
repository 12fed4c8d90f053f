import { afterEach, describe, expect, it } from 'vitest';
import { ORIGIN } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';

/**
 * TRUST_PROXY decides the one client address (request.ip) that every per-IP limit and
 * better-auth's session records use. The rate_limits keys show which address was counted.
 */
describe('the client address behind proxies', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  const contact = (headers: Record<string, string>, remoteAddress?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'Hi there' },
      headers: { origin: ORIGIN, ...headers },
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  async function countedAddresses(prefix: string): Promise<string[]> {
    const rows = await t.deps.database.db
      .selectFrom('rate_limits')
      .select('key')
      .where('key', 'like', `${prefix}:%`)
      .orderBy('key')
      .execute();
    return rows.map((row) => row.key.slice(prefix.length + 1));
  }

  it('with one proxy hop, a forged left-most X-Forwarded-For does not change the address', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
    // The balancer appends the address it saw; whatever the client put before it is ignored.
    for (let i = 1; i <= 5; i += 1) {
      const response = await contact({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` });
      expect(response.statusCode, response.body).toBe(201);
    }
    const sixth = await contact({ 'x-forwarded-for': '192.0.2.77, 203.0.113.9' });
    expect(sixth.statusCode).toBe(429);
    // Another real client behind the same balancer has its own budget.
    expect((await contact({ 'x-forwarded-for': '198.51.100.1, 203.0.113.10' })).statusCode).toBe(
      201,
    );
    expect(await countedAddresses('contact:ip')).toEqual(['203.0.113.10', '203.0.113.9']);

    // Share-key guessing counts the same address.
    const miss = await t.app.inject({
      method: 'GET',
      url: '/api/links/hash/not-a-real-key',
      headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' },
    });
    expect(miss.statusCode).toBe(404);
    expect(await countedAddresses('link-miss:ip')).toEqual(['203.0.113.9']);
  });

  it('with a list of proxies, honours X-Forwarded-For only from a trusted proxy', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' } });
    // From a trusted proxy: the right-most address that is not a trusted proxy is the client.
    expect(
      (await contact({ 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.9.9.9' }, '10.1.2.3'))
        .statusCode,
    ).toBe(201);
    expect((await contact({ 'x-forwarded-for': '198.51.100.8' }, '192.0.2.1')).statusCode).toBe(
      201,
    );
    // From anyone else the header is the client's own words: the socket address counts.
    expect((await contact({ 'x-forwarded-for': '198.51.100.9' }, '192.0.2.50')).statusCode).toBe(
      201,
    );
    expect(await countedAddresses('contact:ip')).toEqual([
      '192.0.2.50',
      '198.51.100.7',
      '198.51.100.8',
    ]);
  });

  it('without TRUST_PROXY, uses the socket address whatever the headers say', async () => {
    t = await createTestApp();
    for (let i = 1; i <= 5; i += 1) {
      expect((await contact({ 'x-forwarded-for': `198.51.100.${i}` })).statusCode).toBe(201);
    }
    expect((await contact({ 'x-forwarded-for': '198.51.100.99' })).statusCode).toBe(429);
    expect(await countedAddresses('contact:ip')).toEqual(['127.0.0.1']);
  });

  it('records the resolved address, not a client-sent header, on better-auth sessions', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email: `ip${Date.now()}@example.com`, password: 'violet-mixdown-47' },
      headers: {
        origin: ORIGIN,
        'x-forwarded-for': '6.6.6.6, 203.0.113.44',
        'x-takes-client-ip': '7.7.7.7',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const sessions = await t.deps.database.db.selectFrom('sessions').select('ip_address').execute();
    expect(sessions).toEqual([{ ip_address: '203.0.113.44' }]);
    expect(await countedAddresses('sign-up:ip')).toEqual(['203.0.113.44']);
  });
});
