import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allEndpoints, isZodSchema, type Endpoint } from '@takes/contract';
import { ORIGIN } from '../../test/api';
import {
  expectSafeAnswer,
  fuzzParameters,
  oddString,
  rangeHeader,
  withinTime,
} from '../../test/fuzz';
import { defaultParams, pathOf, useWorldApp } from '../../test/world';

/**
 * Hostile path parameters on every route that has them (`../`, `..%2F`, `%00`, 5,000
 * characters, SQL quotes, odd Unicode, broken percent-encoding), one parameter at a time with the
 * others naming a real project, version or repository; and random Range headers on every route
 * that serves ranges. Every answer is a 4xx with `{error}` or a success; a 206 carries the right
 * Content-Range and exactly those bytes.
 */

/** Put into the path as they are (already URL syntax). */
const RAW_SEGMENTS = ['..', '../', '..%2F', '%2e%2e%2f', '%00', '%', '%E0%A4%A', '%ED%A0%80', '.'];
/** Put into the path encoded, as a client would send a value. */
const VALUES = [
  '../../etc/passwd',
  '\u0000',
  'x'.repeat(5000),
  "' or 1=1 --",
  '1; DROP TABLE versions',
  '👩‍👩‍👧‍👦',
  '\u202egnp.exe',
  '-1',
  '0',
  'null',
  '__proto__',
];

const ANSWER_WITHIN_MS = 10_000;

/** Answers by design here: no social sign-in provider is configured in tests ("not configured"). */
const DESIGNED: Record<string, number[]> = { startSocialSignIn: [503] };

/** Every UTF-8 byte percent-encoded (encodeURIComponent refuses lone surrogates). */
const percentEncoded = (value: string) =>
  [...Buffer.from(value)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

const paramNames = (endpoint: Endpoint) =>
  [...endpoint.path.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');

const servesRanges = (endpoint: Endpoint) =>
  Object.values(endpoint.responses).some(
    (spec) => spec !== undefined && !isZodSchema(spec) && 'ranges' in spec && spec.ranges,
  );

describe('fuzzing path parameters and Range headers', () => {
  const c = useWorldApp();
  let address = 0;

  async function call(
    endpoint: Endpoint,
    url: string,
    asOwner: boolean,
    headers: Record<string, string> = {},
  ) {
    address += 1;
    return withinTime(
      c.t.app.inject({
        method: endpoint.method,
        url,
        remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
        headers: {
          origin: ORIGIN,
          ...(asOwner ? { cookie: c.world.users.owner.cookie } : {}),
          ...headers,
        },
        ...(endpoint.method === 'GET' || endpoint.method === 'DELETE' ? {} : { payload: {} }),
      }),
      ANSWER_WITHIN_MS,
      `${endpoint.method} ${url.slice(0, 200)}`,
    );
  }

  /** The endpoint's path with `name` replaced by `segment` (already encoded), the rest real. */
  function urlWith(endpoint: Endpoint, name: string, segment: string): string {
    const marker = 'FUZZ-MARKER';
    const params = { '*': 'covers/x/y', ...defaultParams(c.world, true), [name]: marker };
    const url = pathOf(endpoint, params);
    return url.replace(marker, segment);
  }

  /** The route's path naming the world's objects (a stored object: by its signed URL). */
  async function worldUrl(endpoint: Endpoint): Promise<string> {
    // A Public project's version for the public route; the world's own for the rest.
    if (endpoint.name === 'streamPublicVersion')
      return pathOf(endpoint, { versionId: c.world.publicProject.versionId });
    // A collection link's item: the world's collection link and its one item.
    if (
      endpoint.name === 'streamCollectionLinkItem' ||
      endpoint.name === 'downloadCollectionLinkItem'
    )
      return pathOf(endpoint, {
        hash: c.world.collectionLink.hash,
        itemId: c.world.collectionLink.itemId,
      });
    // The world's collection (it has a cover), as its owner and through its link.
    if (endpoint.name === 'getCollectionCover')
      return pathOf(endpoint, { id: c.world.collectionLink.collectionId });
    if (endpoint.name === 'getCollectionLinkCover')
      return pathOf(endpoint, { hash: c.world.collectionLink.hash });
    // A blind test's option, as the listener it was dealt to.
    if (endpoint.name === 'streamBlindOption')
      return pathOf(endpoint, {
        hash: c.world.blindTest.hash,
        optionId: c.world.blindTest.optionId,
      });
    // A guest's file sent through the world's upload link, as the team plays it.
    if (endpoint.name === 'streamGuestFile') return pathOf(endpoint, { id: c.world.guestFile.id });
    // A collection link's ready zip.
    if (endpoint.name === 'downloadCollectionLinkZip')
      return pathOf(endpoint, {
        hash: c.world.collectionLink.hash,
        zipId: c.world.collectionZip.id,
      });
    if (endpoint.name !== 'getStoredObject') return pathOf(endpoint, defaultParams(c.world, true));
    const { original_key: key } = await c.t.deps.database.db
      .selectFrom('versions')
      .select('original_key')
      .where('id', '=', c.world.version.id)
      .executeTakeFirstOrThrow();
    const signed = new URL(
      await c.t.deps.storage.signedUrl(key ?? '', { expiresInSeconds: 600 }),
      ORIGIN,
    );
    return signed.pathname + signed.search;
  }

  const withParams = allEndpoints.filter((e) => paramNames(e).length > 0);

  it('answers hostile values in every path parameter with a 4xx {error} or a success', async () => {
    expect(withParams.length).toBeGreaterThan(60);
    let turn = 0;
    for (const endpoint of withParams)
      for (const name of paramNames(endpoint)) {
        const segments = [...RAW_SEGMENTS, ...VALUES.map((v) => encodeURIComponent(v))];
        for (const segment of segments) {
          const asOwner = ++turn % 2 === 0;
          const response = await call(endpoint, urlWith(endpoint, name, segment), asOwner);
          expectSafeAnswer(
            response,
            `${endpoint.name} :${name}=${segment.slice(0, 40)} as ${asOwner ? 'owner' : 'nobody'}`,
            DESIGNED[endpoint.name],
          );
        }
      }
  }, 240_000);

  it('answers random strings in random path parameters with a 4xx {error} or a success', async () => {
    const target = fc
      .constantFrom(...withParams)
      .chain((endpoint) =>
        fc.tuple(fc.constant(endpoint), fc.constantFrom(...paramNames(endpoint))),
      );
    await fc.assert(
      fc.asyncProperty(
        target,
        oddString,
        fc.boolean(),
        async ([endpoint, name], value, asOwner) => {
          const segment = percentEncoded(value);
          const response = await call(endpoint, urlWith(endpoint, name, segment), asOwner);
          expectSafeAnswer(response, `${endpoint.name} :${name}`, DESIGNED[endpoint.name]);
        },
      ),
      fuzzParameters(150),
    );
  }, 120_000);

  it('answers hostile query values (cursors that decode to anything included) with a 4xx {error} or a success', async () => {
    // The live-update stream never ends: it is left out (its one query value is a link key).
    const withQuery = allEndpoints.filter(
      (e) => e.query !== undefined && e.name !== 'streamEvents',
    );
    expect(withQuery.length).toBeGreaterThan(10);
    const cursor = fc
      .tuple(
        fc.oneof(
          fc.date().map((d) => String(d.getTime())),
          oddString,
        ),
        oddString,
      )
      .map(([when, id]) => Buffer.from(`${when}|${id}`).toString('base64url'));
    const value = fc.oneof(
      oddString,
      cursor,
      fc.constantFrom('-1', '0', '1e309', 'NaN', '9007199254740993', 'true', '[]', '{}'),
    );
    for (const endpoint of withQuery) {
      const keys = Object.keys(endpoint.query?.shape ?? {});
      const url = await worldUrl(endpoint);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(...keys), value), { minLength: 1, maxLength: 4 }),
          fc.boolean(),
          async (pairs, asOwner) => {
            const query = pairs.map(([key, v]) => `${key}=${percentEncoded(v)}`).join('&');
            const response = await call(endpoint, `${url}?${query}`, asOwner);
            expectSafeAnswer(response, `${endpoint.name}?${query.slice(0, 200)}`);
          },
        ),
        fuzzParameters(15),
      );
    }
  }, 120_000);

  it('answers random Range headers with 200, 206 (the right bytes and Content-Range) or 416', async () => {
    const ranged = allEndpoints.filter(servesRanges);
    const skipped: string[] = [];
    for (const endpoint of ranged) {
      const url = await worldUrl(endpoint);
      // A blind test's audio is its listener's: their cookie, not the owner's.
      const listener: Record<string, string> =
        endpoint.name === 'streamBlindOption' ? { cookie: c.world.blindTest.cookie } : {};
      const whole = await call(endpoint, url, true, listener);
      // The owner has no avatar: nothing to range over.
      if (whole.statusCode !== 200) {
        skipped.push(`${endpoint.name} ${whole.statusCode}`);
        continue;
      }
      const full = whole.rawPayload;
      await fc.assert(
        fc.asyncProperty(rangeHeader(full.length), async (range) => {
          const response = await call(endpoint, url, true, { ...listener, range });
          const what = `${endpoint.name} Range: ${range} → ${response.statusCode}`;
          expect([200, 206, 416], what).toContain(response.statusCode);
          if (response.statusCode === 200)
            expect(response.rawPayload.equals(full), what).toBe(true);
          if (response.statusCode === 416)
            expect(response.headers['content-range'], what).toBe(`bytes */${full.length}`);
          if (response.statusCode === 206) {
            const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(
              String(response.headers['content-range']),
            );
            expect(match, what).not.toBeNull();
            const [start, end, size] = (match ?? []).slice(1).map(Number) as [
              number,
              number,
              number,
            ];
            expect(size, what).toBe(full.length);
            expect(start <= end && end < size, what).toBe(true);
            expect(response.rawPayload.equals(full.subarray(start, end + 1)), what).toBe(true);
          }
        }),
        fuzzParameters(25),
      );
    }
    expect(skipped).toEqual(['getAvatar 404']);
  }, 120_000);
});
