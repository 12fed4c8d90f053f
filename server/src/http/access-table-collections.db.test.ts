import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_MESSAGES, type Collection, type SharedCollection } from '@takes/contract';
import { api, ORIGIN } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';
import {
  buildWorld,
  makeWorldFiles,
  memberCollectionLink,
  type World,
  type WorldFiles,
} from '../../test/world';

/**
 * The access table's rows for the callers a collection link adds: a signed-out stranger holding
 * the link of a collection owned by each member of the items' project (a link serves an item
 * only while its collection's owner may share it: Editor and up), and a signed-in Viewer
 * commenting through a link (always a visitor's comment, never a member's).
 */
type Owner = 'viewer' | 'commenter' | 'editor' | 'owner';
type ItemRoute = 'stream' | 'download' | 'listComments' | 'addComment' | 'receipt';

const ITEM_STATUS: Record<Owner, Record<ItemRoute, number>> = {
  viewer: { stream: 404, download: 404, listComments: 404, addComment: 404, receipt: 404 },
  commenter: { stream: 404, download: 404, listComments: 404, addComment: 404, receipt: 404 },
  editor: { stream: 200, download: 200, listComments: 200, addComment: 201, receipt: 204 },
  owner: { stream: 200, download: 200, listComments: 200, addComment: 201, receipt: 204 },
};

describe('the access table: collection links by who owns the collection, comments through links', () => {
  let t: TestApp;
  let dir: string;
  let files: WorldFiles;
  let w: World;
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-access-collections-'));
    files = await makeWorldFiles(dir);
    w = await buildWorld(t, files);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A request from a new client address (the per-address limits stay out of it). */
  function send(method: 'GET' | 'POST', url: string, body?: object, cookie?: string) {
    ip += 1;
    return t.app.inject({
      method,
      url,
      remoteAddress: `10.41.${(ip >> 8) & 255}.${ip & 255}`,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(body ? { payload: body } : {}),
    });
  }

  for (const owner of ['viewer', 'commenter', 'editor', 'owner'] as const)
    it(`a signed-out stranger on the link of a collection owned by the project's ${owner}`, async () => {
      const link = await memberCollectionLink(t, w, owner);
      const base = `/api/collection-links/${link.hash}`;
      const item = `${base}/items/${link.itemId}`;
      const served = ITEM_STATUS[owner].stream === 200;

      const page = await send('GET', base);
      expect(page.statusCode).toBe(200);
      expect(page.json<SharedCollection>().items.map((i) => i.id)).toEqual(
        served ? [link.itemId] : [],
      );
      const got: Record<ItemRoute, number> = {
        stream: (await send('GET', `${item}/stream`)).statusCode,
        download: (await send('GET', `${item}/download`)).statusCode,
        listComments: (await send('GET', `${item}/comments`)).statusCode,
        addComment: (
          await send('POST', `${item}/comments`, { content: 'Hi', visitor_name: 'Stranger' })
        ).statusCode,
        receipt: (await send('POST', `${item}/receipts`, { event: 'play' })).statusCode,
      };
      expect(got).toEqual(ITEM_STATUS[owner]);

      // The owner's collection page says why on that item; nobody else is told.
      const own = (
        await api(t, w.users[owner].cookie).get(`/api/collections/${link.collectionId}`)
      ).json<Collection>();
      expect(own.items.map((i) => i.link_unavailable_reason)).toEqual([
        served ? null : COLLECTION_MESSAGES.linkNeedsShare,
      ]);
    });

  describe('a signed-in Viewer of the project commenting through a link', () => {
    const stored = (id: string) =>
      t.deps.database.db
        .selectFrom('comments')
        .select(['user_id', 'visitor_name'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('through a version link: 201, a visitor comment under their name', async () => {
      const made = await send(
        'POST',
        `/api/links/hash/${w.link.hash}/comments`,
        { content: 'Through the link' },
        w.users.viewer.cookie,
      );
      expect(made.statusCode, made.body).toBe(201);
      expect(await stored(made.json<{ id: string }>().id)).toEqual({
        user_id: null,
        visitor_name: 'A viewer',
      });
    });

    it("through a collection link (the Owner's): 201, a visitor comment under their name", async () => {
      const made = await send(
        'POST',
        `/api/collection-links/${w.collectionLink.hash}/items/${w.collectionLink.itemId}/comments`,
        { content: 'Through the collection' },
        w.users.viewer.cookie,
      );
      expect(made.statusCode, made.body).toBe(201);
      expect(await stored(made.json<{ id: string }>().id)).toEqual({
        user_id: null,
        visitor_name: 'A viewer',
      });
    });

    it('and a Commenter through either: 201, under their account', async () => {
      for (const url of [
        `/api/links/hash/${w.link.hash}/comments`,
        `/api/collection-links/${w.collectionLink.hash}/items/${w.collectionLink.itemId}/comments`,
      ]) {
        const made = await send('POST', url, { content: 'As me' }, w.users.commenter.cookie);
        expect(made.statusCode, made.body).toBe(201);
        expect(await stored(made.json<{ id: string }>().id)).toEqual({
          user_id: w.users.commenter.id,
          visitor_name: null,
        });
      }
    });
  });
});
