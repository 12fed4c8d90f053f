import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionLink, SharedCollection } from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import {
  collectionWorld,
  expectError,
  shareCollection,
  visitor,
} from '../../../test/collection-world';
import { createTestApp, type TestApp } from '../../../test/test-app';

describe('collection links', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-collection-links-'));
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const world = () => collectionWorld(t, dir);
  const share = shareCollection;

  describe('owner', () => {
    it('creates one link, or one per recipient, each with its own 22-character key', async () => {
      const w = await world();
      const [one] = await share(w.as, w.collection.id, { name: 'Label', download_enabled: true });
      expect(one).toMatchObject({
        name: 'Label',
        recipient: null,
        download_enabled: true,
        has_password: false,
        revoked: false,
        expires_at: null,
      });
      expect(one?.key).toMatch(/^[A-Za-z0-9]{22}$/);
      expect(one?.url).toBe(`/share/${one?.key}`);
      const each = await share(w.as, w.collection.id, {
        name: 'Press',
        expires_at: '2099-01-01T00:00:00.000Z',
        recipients: [{ name: 'Ana', email: 'ana@example.com' }, { name: 'Ben' }],
      });
      expect(each.map((link) => link.recipient)).toEqual([
        { name: 'Ana', email: 'ana@example.com' },
        { name: 'Ben', email: null },
      ]);
      expect(new Set([one?.key, ...each.map((link) => link.key)]).size).toBe(3);
      expect(each.every((link) => link.expires_at === '2099-01-01T00:00:00.000Z')).toBe(true);

      const listed = await w.as.get(`/api/collections/${w.collection.id}/links`);
      expect(listed.statusCode, listed.body).toBe(200);
      const keys = listed.json<{ links: CollectionLink[] }>().links.map((link) => link.key);
      expect(keys.sort()).toEqual([one?.key, ...each.map((link) => link.key)].sort());
    });

    it("answers 404 'Collection not found' for another person's collection", async () => {
      const w = await world();
      const [link] = await share(w.as, w.collection.id);
      const other = api(t, w.bandOwner.cookie);
      const base = `/api/collections/${w.collection.id}/links`;
      expectError(await other.post(base, { name: 'Mine now' }), 404, 'Collection not found');
      expectError(await other.get(base), 404, 'Collection not found');
      expectError(await other.delete(`${base}/${link?.id}`), 404, 'Collection not found');
      expect(
        await t.deps.database.db
          .selectFrom('collection_links')
          .select('revoked_at')
          .where('id', '=', link?.id ?? '')
          .executeTakeFirstOrThrow(),
      ).toEqual({ revoked_at: null });
    });

    it('refuses a password shorter than 8 characters', async () => {
      const w = await world();
      const made = await w.as.post(`/api/collections/${w.collection.id}/links`, {
        name: 'Short',
        password: 'short',
      });
      expect(made.statusCode).toBe(400);
    });

    it("revoking one recipient's link stops only that link", async () => {
      const w = await world();
      const [ana, ben] = await share(w.as, w.collection.id, {
        name: 'Press',
        recipients: [{ name: 'Ana' }, { name: 'Ben' }],
      });
      const revoked = await w.as.delete(`/api/collections/${w.collection.id}/links/${ana?.id}`);
      expect(revoked.statusCode, revoked.body).toBe(204);
      expectError(
        await w.as.delete(`/api/collections/${w.collection.id}/links/${ana?.id}`),
        404,
        'Link not found',
      );
      const anon = visitor(t);
      expectError(await anon.get(`/api/collection-links/${ana?.key}`), 404, 'Link not found');
      expect((await anon.get(`/api/collection-links/${ben?.key}`)).statusCode).toBe(200);
      const listed = (await w.as.get(`/api/collections/${w.collection.id}/links`)).json<{
        links: CollectionLink[];
      }>().links;
      expect(listed.find((link) => link.id === ana?.id)?.revoked).toBe(true);
      expect(listed.find((link) => link.id === ben?.id)?.revoked).toBe(false);
    });
  });

  describe('public', () => {
    it("shows exactly the collection's items in order, and streams only those", async () => {
      const w = await world();
      const [link] = await share(w.as, w.collection.id);
      const anon = visitor(t);
      const opened = await anon.get(`/api/collection-links/${link?.key}`);
      expect(opened.statusCode, opened.body).toBe(200);
      const page = opened.json<SharedCollection>();
      expect(page.name).toBe('For the label');
      expect(page.items.map((item) => item.id)).toEqual(w.itemIds);
      expect(page.items.map((item) => [item.title, item.project_name])).toEqual([
        ['First mix', 'Night Drive'],
        ['Band take', 'Band Demos'],
        ['Second mix', 'Night Drive'],
      ]);
      expect(page.items.every((item) => item.kind === 'version' && !item.download_enabled)).toBe(
        true,
      );
      const stream = (itemId: string, headers?: string) =>
        anon.get(`/api/collection-links/${link?.key}/items/${itemId}/stream`, headers);
      const played = await stream(w.itemIds[1] ?? '');
      expect(played.statusCode, played.body).toBe(200);
      expect(played.headers['content-type']).toBe('audio/mpeg');
      const ranged = await t.app.inject({
        method: 'GET',
        url: `/api/collection-links/${link?.key}/items/${w.itemIds[0]}/stream`,
        headers: { range: 'bytes=0-9' },
      });
      expect(ranged.statusCode).toBe(206);
      // Another collection's item (of the same version), a random id: not this link's.
      expect((await stream(w.otherItem.id)).statusCode).toBe(404);
      expect((await stream(randomUUID())).statusCode).toBe(404);
    });

    it("leaves out a project's items once the owner can no longer read it", async () => {
      const w = await world();
      const [link] = await share(w.as, w.collection.id);
      const anon = visitor(t);
      const bandItem = w.itemIds[1] ?? '';
      const streamUrl = `/api/collection-links/${link?.key}/items/${bandItem}/stream`;
      expect((await anon.get(streamUrl)).statusCode).toBe(200);
      await t.deps.database.db
        .deleteFrom('project_members')
        .where('user_id', '=', w.me.id)
        .where('project_id', '=', w.band.project.id)
        .execute();
      const page = (await anon.get(`/api/collection-links/${link?.key}`)).json<SharedCollection>();
      expect(page.items.map((item) => item.id)).toEqual([w.itemIds[0], w.itemIds[2]]);
      expect(JSON.stringify(page)).not.toContain('Band');
      expectError(await anon.get(streamUrl), 404, 'Item not found');
    });

    it('answers 410 for an expired link and 404 for a revoked or unknown one', async () => {
      const w = await world();
      const [expired] = await share(w.as, w.collection.id, {
        name: 'Old',
        expires_at: new Date(Date.now() - 60_000).toISOString(),
      });
      const [revoked] = await share(w.as, w.collection.id, { name: 'Gone' });
      await w.as.delete(`/api/collections/${w.collection.id}/links/${revoked?.id}`);
      const anon = visitor(t);
      expectError(
        await anon.get(`/api/collection-links/${expired?.key}`),
        410,
        'This link has expired',
      );
      expectError(
        await anon.get(`/api/collection-links/${expired?.key}/items/${w.itemIds[0]}/stream`),
        410,
        'This link has expired',
      );
      expectError(await anon.get(`/api/collection-links/${revoked?.key}`), 404, 'Link not found');
      expectError(
        await anon.get(`/api/collection-links/${revoked?.key}/items/${w.itemIds[0]}/stream`),
        404,
        'Link not found',
      );
      expectError(await anon.get(`/api/collection-links/${'x'.repeat(22)}`), 404, 'Link not found');
    });
  });

  describe('password', () => {
    it('asks for the password and says nothing else; the right one sets a cookie that opens it', async () => {
      const w = await world();
      const [link] = await share(w.as, w.collection.id, {
        name: 'Secret',
        password: 'correct horse',
      });
      expect(link?.has_password).toBe(true);
      const anon = visitor(t);
      const base = `/api/collection-links/${link?.key}`;
      const locked = await anon.get(base);
      expect(locked.statusCode).toBe(401);
      expect(locked.json()).toEqual({
        error: 'This link needs a password',
        code: 'link_password_required',
      });
      const lockedStream = await anon.get(`${base}/items/${w.itemIds[0]}/stream`);
      expect(lockedStream.json()).toEqual({
        error: 'This link needs a password',
        code: 'link_password_required',
      });
      expect(lockedStream.statusCode).toBe(401);

      const wrong = await anon.post(`${base}/unlock`, { password: 'wrong horse' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: 'Wrong password', code: 'link_password_wrong' });
      expect(wrong.headers['set-cookie']).toBeUndefined();

      const right = await anon.post(`${base}/unlock`, { password: 'correct horse' });
      expect(right.statusCode, right.body).toBe(204);
      const setCookie = String(right.headers['set-cookie']);
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Lax/);
      expect(setCookie).toMatch(/Path=\//);
      const cookie = setCookie.split(';')[0] ?? '';
      const opened = await anon.get(base, cookie);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json<SharedCollection>().items).toHaveLength(3);
      expect((await anon.get(`${base}/items/${w.itemIds[0]}/stream`, cookie)).statusCode).toBe(200);
      // The cookie opens only its own link.
      const [other] = await share(w.as, w.collection.id, {
        name: 'Other',
        password: 'correct horse',
      });
      expect((await anon.get(`/api/collection-links/${other?.key}`, cookie)).statusCode).toBe(401);
      // A forged value does not open it.
      const forged = `${cookie.split('=')[0]}=${'A'.repeat(43)}`;
      expect((await anon.get(base, forged)).statusCode).toBe(401);

      // The hash is never shown, by any answer.
      const stored = await t.deps.database.db
        .selectFrom('collection_links')
        .select('password_hash')
        .where('id', '=', link?.id ?? '')
        .executeTakeFirstOrThrow();
      expect(stored.password_hash).toMatch(/^scrypt\$/);
      const answers = [
        locked.body,
        wrong.body,
        opened.body,
        JSON.stringify(link),
        (await w.as.get(`/api/collections/${w.collection.id}/links`)).body,
      ];
      for (const body of answers) {
        expect(body).not.toContain(stored.password_hash);
        expect(body).not.toContain('correct horse');
      }
    });

    it('refuses the 6th wrong try in 10 minutes with 429, and then the right one too', async () => {
      const w = await world();
      const [link] = await share(w.as, w.collection.id, {
        name: 'Secret',
        password: 'correct horse',
      });
      const unlock = `/api/collection-links/${link?.key}/unlock`;
      const anon = visitor(t);
      for (let i = 0; i < 5; i++)
        expectError(await anon.post(unlock, { password: `wrong ${i}` }), 401, 'Wrong password');
      const sixth = await anon.post(unlock, { password: 'wrong 6' });
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json<{ error: string }>().error).toMatch(/^Too many attempts/);
      expect((await anon.post(unlock, { password: 'correct horse' })).statusCode).toBe(429);
      // Another address is counted apart.
      expect((await visitor(t).post(unlock, { password: 'correct horse' })).statusCode).toBe(204);
    });
  });

  describe('receipts', () => {
    it('counts each event per link and item and shows the counts to the owner', async () => {
      const w = await world();
      const [ana, ben] = await share(w.as, w.collection.id, {
        name: 'Press',
        recipients: [{ name: 'Ana' }, { name: 'Ben' }],
      });
      const anon = visitor(t);
      const receipt = async (
        key: string | undefined,
        itemId: string | undefined,
        event: string,
      ) => {
        const response = await anon.post(`/api/collection-links/${key}/items/${itemId}/receipts`, {
          event,
        });
        expect(response.statusCode, response.body).toBe(204);
      };
      const [first, second] = w.itemIds;
      await receipt(ana?.key, first, 'play');
      // A second listener (a listener's own plays count once an hour: listen-counts.db.test.ts).
      const again = await visitor(t).post(
        `/api/collection-links/${ana?.key}/items/${first}/receipts`,
        { event: 'play' },
      );
      expect(again.statusCode, again.body).toBe(204);
      await receipt(ana?.key, first, 'played_30s');
      await receipt(ana?.key, first, 'played_90');
      await receipt(ana?.key, first, 'download');
      await receipt(ana?.key, second, 'play');
      await receipt(ben?.key, second, 'played_30s');
      const bad = await anon.post(`/api/collection-links/${ana?.key}/items/${first}/receipts`, {
        event: 'skipped',
      });
      expect(bad.statusCode).toBe(400);
      expectError(
        await anon.post(`/api/collection-links/${ana?.key}/items/${w.otherItem.id}/receipts`, {
          event: 'play',
        }),
        404,
        'Item not found',
      );

      const links = (await w.as.get(`/api/collections/${w.collection.id}/links`)).json<{
        links: CollectionLink[];
      }>().links;
      const of = (id: string | undefined) =>
        links
          .find((link) => link.id === id)
          ?.receipts.map(({ last_activity_at, ...counts }) => {
            expect(typeof last_activity_at).toBe('string');
            return counts;
          });
      expect(
        of(ana?.id)?.sort((a, b) => w.itemIds.indexOf(a.item_id) - w.itemIds.indexOf(b.item_id)),
      ).toEqual([
        { item_id: first, plays_started: 2, plays_30s: 1, plays_90: 1, downloads: 1 },
        { item_id: second, plays_started: 1, plays_30s: 0, plays_90: 0, downloads: 0 },
      ]);
      expect(of(ben?.id)).toEqual([
        { item_id: second, plays_started: 0, plays_30s: 1, plays_90: 0, downloads: 0 },
      ]);
    });

    it('asks for the password like the other public routes', async () => {
      const w = await world();
      const [link] = await share(w.as, w.collection.id, {
        name: 'Secret',
        password: 'correct horse',
      });
      const response = await visitor(t).post(
        `/api/collection-links/${link?.key}/items/${w.itemIds[0]}/receipts`,
        { event: 'play' },
      );
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: 'This link needs a password',
        code: 'link_password_required',
      });
      const stored = await t.deps.database.db
        .selectFrom('collection_link_receipts')
        .selectAll()
        .where('link_id', '=', link?.id ?? '')
        .execute();
      expect(stored).toEqual([]);
    });

    it('keeps counts only: no address, user agent or cookie column', async () => {
      const w = await world();
      const [link] = await share(w.as, w.collection.id);
      await t.app.inject({
        method: 'POST',
        url: `/api/collection-links/${link?.key}/items/${w.itemIds[0]}/receipts`,
        payload: { event: 'play' },
        remoteAddress: '10.77.77.77',
        headers: { origin: ORIGIN, 'user-agent': 'Listener/1.0', cookie: 'a=b' },
      });
      const row = await t.deps.database.db
        .selectFrom('collection_link_receipts')
        .selectAll()
        .where('link_id', '=', link?.id ?? '')
        .executeTakeFirstOrThrow();
      expect(Object.keys(row).sort()).toEqual(
        [
          'link_id',
          'item_id',
          'plays_started',
          'plays_30s',
          'plays_90',
          'downloads',
          'last_activity_at',
        ].sort(),
      );
      expect(JSON.stringify(row)).not.toMatch(/10\.77|Listener|a=b/);
    });
  });

  it('stores links in a table of exactly these columns', async () => {
    const w = await world();
    await share(w.as, w.collection.id);
    const row = await t.deps.database.db
      .selectFrom('collection_links')
      .selectAll()
      .where('collection_id', '=', w.collection.id)
      .executeTakeFirstOrThrow();
    expect(Object.keys(row).sort()).toEqual(
      [
        'id',
        'collection_id',
        'hash',
        'name',
        'recipient_name',
        'recipient_email',
        'expires_at',
        'download_enabled',
        'password_hash',
        'revoked_at',
        'created_at',
        'emailed_at',
        'first_played_at',
      ].sort(),
    );
  });
});
