import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLLECTION_MESSAGES,
  REPO_MESSAGES,
  type Collection,
  type CollectionSummary,
  type SharedCollection,
} from '@takes/contract';
import { api, eventually } from '../../../test/api';
import {
  expectError,
  PNG,
  sendCollectionCover,
  shareCollection,
  visitor,
} from '../../../test/collection-world';
import { buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

// A JPEG's first bytes are enough for the sniffer; the rest may be anything.
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]);

describe('collection covers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // Replaced and deleted covers leave the store through a job.
    await t.deps.jobs.startWorking();
  }, 60_000);
  afterAll(() => t.close());

  const sendCover = (cookie: string, id: string, content: Buffer, field?: string) =>
    sendCollectionCover(t, cookie, id, content, field);

  const stored = async (collectionId: string) =>
    (await t.deps.storage.list(`collection-covers/${collectionId}/`)).map((o) => o.key);

  async function owner() {
    const me = await buildUser(t.deps.database.db, { name: 'Mia' });
    const as = api(t, me.cookie);
    const made = await as.post('/api/collections', { name: 'For the label' });
    expect(made.statusCode, made.body).toBe(201);
    return { me, as, collection: made.json<Collection>() };
  }

  it('sets, serves, replaces and removes a cover, keeping one stored image at a time', async () => {
    const { me, as, collection } = await owner();
    expect(collection.cover_url).toBeNull();

    const set = await sendCover(me.cookie, collection.id, PNG);
    expect(set.statusCode, set.body).toBe(200);
    const first = set.json<Collection>().cover_url ?? '';
    expect(first).toMatch(
      new RegExp(`^/api/collections/${collection.id}/cover\\?v=[0-9a-f-]{36}$`),
    );
    const image = await as.get(first);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect((await as.get(`/api/collections/${collection.id}`)).json<Collection>().cover_url).toBe(
      first,
    );
    const listed = (await as.get('/api/collections')).json<{ collections: CollectionSummary[] }>();
    expect(listed.collections.find((c) => c.id === collection.id)?.cover_url).toBe(first);
    const [firstKey] = await stored(collection.id);
    expect(await stored(collection.id)).toHaveLength(1);

    // A new image is a new URL (browsers fetch it again); the old image leaves the store.
    const replaced = await sendCover(me.cookie, collection.id, JPEG);
    expect(replaced.statusCode, replaced.body).toBe(200);
    const second = replaced.json<Collection>().cover_url ?? '';
    expect(second).not.toBe(first);
    const jpeg = await as.get(second);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(jpeg.rawPayload.equals(JPEG)).toBe(true);
    await eventually(async () => !(await stored(collection.id)).includes(firstKey ?? ''));
    expect(await stored(collection.id)).toHaveLength(1);

    const removed = await as.delete(`/api/collections/${collection.id}/cover`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await as.get(`/api/collections/${collection.id}`)).json<Collection>().cover_url).toBe(
      null,
    );
    expectError(
      await as.get(`/api/collections/${collection.id}/cover`),
      404,
      COLLECTION_MESSAGES.noCover,
    );
    await eventually(async () => (await stored(collection.id)).length === 0);
    // Removing again is harmless.
    expect((await as.delete(`/api/collections/${collection.id}/cover`)).statusCode).toBe(204);
  });

  it('refuses a text file named cover.png, a too large image and a missing part, storing nothing', async () => {
    const { me, as, collection } = await owner();
    const text = await sendCover(me.cookie, collection.id, Buffer.from('just text, not an image'));
    expectError(text, 415, REPO_MESSAGES.coverInvalid);
    const big = await sendCover(
      me.cookie,
      collection.id,
      Buffer.concat([PNG.subarray(0, 16), Buffer.alloc(5 * 1024 * 1024 + 10)]),
    );
    expectError(big, 413, REPO_MESSAGES.coverTooLarge);
    expectError(
      await sendCover(me.cookie, collection.id, PNG, 'avatar'),
      400,
      REPO_MESSAGES.coverRequired,
    );
    expect(await stored(collection.id)).toEqual([]);
    expect((await as.get(`/api/collections/${collection.id}`)).json<Collection>().cover_url).toBe(
      null,
    );

    // A refused image leaves the cover there was.
    const ok = await sendCover(me.cookie, collection.id, PNG);
    const coverUrl = ok.json<Collection>().cover_url;
    expectError(
      await sendCover(me.cookie, collection.id, Buffer.from('GIF89a not ours')),
      415,
      REPO_MESSAGES.coverInvalid,
    );
    expect((await as.get(`/api/collections/${collection.id}`)).json<Collection>().cover_url).toBe(
      coverUrl,
    );
    expect(await stored(collection.id)).toHaveLength(1);
  });

  it("answers 404 'Collection not found' to anyone but the owner, and 401 signed out", async () => {
    const { me, collection } = await owner();
    expect((await sendCover(me.cookie, collection.id, PNG)).statusCode).toBe(200);
    const stranger = await buildUser(t.deps.database.db, { name: 'Stan' });
    const them = api(t, stranger.cookie);
    const url = `/api/collections/${collection.id}/cover`;
    expectError(
      await sendCover(stranger.cookie, collection.id, JPEG),
      404,
      COLLECTION_MESSAGES.notFound,
    );
    expectError(await them.get(url), 404, COLLECTION_MESSAGES.notFound);
    expectError(await them.delete(url), 404, COLLECTION_MESSAGES.notFound);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    // The owner's cover is untouched.
    const mine = await api(t, me.cookie).get(url);
    expect(mine.rawPayload.equals(PNG)).toBe(true);
    expect(await stored(collection.id)).toHaveLength(1);
  });

  it('deleting a collection removes its stored cover', async () => {
    const { me, as, collection } = await owner();
    expect((await sendCover(me.cookie, collection.id, PNG)).statusCode).toBe(200);
    expect(await stored(collection.id)).toHaveLength(1);
    expect((await as.delete(`/api/collections/${collection.id}`)).statusCode).toBe(204);
    await eventually(async () => (await stored(collection.id)).length === 0);
  });

  it("shows a link's visitor the cover: locked while the password is missing, gone once revoked", async () => {
    const { me, as, collection } = await owner();
    const [open] = await shareCollection(as, collection.id, { name: 'Open' });
    const anon = visitor(t);
    const page = (await anon.get(`/api/collection-links/${open?.key}`)).json<SharedCollection>();
    expect(page.cover_url).toBeNull();
    expectError(
      await anon.get(`/api/collection-links/${open?.key}/cover`),
      404,
      COLLECTION_MESSAGES.noCover,
    );

    expect((await sendCover(me.cookie, collection.id, PNG)).statusCode).toBe(200);
    const shown = (await anon.get(`/api/collection-links/${open?.key}`)).json<SharedCollection>();
    expect(shown.cover_url).toMatch(new RegExp(`^/api/collection-links/${open?.key}/cover\\?v=`));
    const image = await anon.get(shown.cover_url ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toBe('private, no-cache');
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const [locked] = await shareCollection(as, collection.id, {
      name: 'Locked',
      password: 'correct horse',
    });
    const lockedCover = `/api/collection-links/${locked?.key}/cover`;
    expectError(await anon.get(lockedCover), 401, 'This link needs a password');
    const unlocked = await anon.post(`/api/collection-links/${locked?.key}/unlock`, {
      password: 'correct horse',
    });
    expect(unlocked.statusCode, unlocked.body).toBe(204);
    const cookie = String(unlocked.headers['set-cookie']).split(';')[0] ?? '';
    expect((await anon.get(lockedCover, cookie)).rawPayload.equals(PNG)).toBe(true);

    expect(
      (await as.delete(`/api/collections/${collection.id}/links/${open?.id}`)).statusCode,
    ).toBe(204);
    expectError(await anon.get(`/api/collection-links/${open?.key}/cover`), 404, 'Link not found');
  });
});
