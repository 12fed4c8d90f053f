import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionLink, Comment, SharedCollection } from '@takes/contract';
import { api } from '../../../test/api';
import { buildUser } from '../../../test/factories';
import {
  collectionWorld,
  expectError,
  shareCollection,
  visitor,
} from '../../../test/collection-world';
import { createTestApp, type TestApp } from '../../../test/test-app';

/** What a collection link's visitor does beyond listening: comment, download, open by key. */
describe('collection link visits', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-collection-visits-'));
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const world = () => collectionWorld(t, dir);
  const links = async (w: Awaited<ReturnType<typeof world>>) =>
    (await w.as.get(`/api/collections/${w.collection.id}/links`)).json<{
      links: CollectionLink[];
    }>().links;

  describe('comments', () => {
    it("a recipient comments on an item; another recipient's link does not show it; the owner sees it", async () => {
      const w = await world();
      const [ana, ben] = await shareCollection(w.as, w.collection.id, {
        name: 'Press',
        recipients: [{ name: 'Ana' }, { name: 'Ben' }],
      });
      const second = w.itemIds[1];
      const anaUrl = `/api/collection-links/${ana?.key}/items/${second}/comments`;
      const benUrl = `/api/collection-links/${ben?.key}/items/${second}/comments`;
      const anaVisitor = visitor(t);
      const made = await anaVisitor.post(anaUrl, {
        content: 'Love the chorus',
        timestamp: 0.5,
        visitor_name: 'Ana',
      });
      expect(made.statusCode, made.body).toBe(201);
      const comment = made.json<Comment>();
      expect(comment).toMatchObject({ author: 'Ana', content: 'Love the chorus', timestamp: 0.5 });
      expect(comment.version_id).toBe(w.versions[1]?.id);

      // Ana's link shows it; Ben's does not (per-recipient links keep their threads apart).
      const anaList = (await visitor(t).get(anaUrl)).json<Comment[]>();
      expect(anaList.map((c) => c.content)).toEqual(['Love the chorus']);
      expect((await visitor(t).get(benUrl)).json<Comment[]>()).toEqual([]);
      // Nor on another item of Ana's own link.
      const first = `/api/collection-links/${ana?.key}/items/${w.itemIds[0]}/comments`;
      expect((await visitor(t).get(first)).json<Comment[]>()).toEqual([]);

      // The band's owner (the version's project) sees it with the team's comments.
      const team = await api(t, w.bandOwner.cookie).get(
        `/api/versions/${w.versions[1]?.id}/comments`,
      );
      expect(team.json<Comment[]>().map((c) => c.content)).toContain('Love the chorus');
      // The collection's owner sees it under Ana's link, on that item.
      const listed = await links(w);
      const anaLink = listed.find((link) => link.id === ana?.id);
      expect(anaLink?.comments).toEqual([
        expect.objectContaining({
          id: comment.id,
          item_id: second,
          author: 'Ana',
          content: 'Love the chorus',
          timestamp: 0.5,
        }),
      ]);
      expect(listed.find((link) => link.id === ben?.id)?.comments).toEqual([]);
    });

    it('replies only within what the link shows, never to a team-only comment; a name is required', async () => {
      const w = await world();
      const [ana, ben] = await shareCollection(w.as, w.collection.id, {
        name: 'Press',
        recipients: [{ name: 'Ana' }, { name: 'Ben' }],
      });
      const item = w.itemIds[0];
      const versionId = w.versions[0]?.id;
      const url = (key: string | undefined) =>
        `/api/collection-links/${key}/items/${item}/comments`;
      const teamOnly = await w.as.post(`/api/versions/${versionId}/comments`, {
        content: 'Fix the bass',
        team_only: true,
      });
      expect(teamOnly.statusCode, teamOnly.body).toBe(201);
      const anaComment = (
        await visitor(t).post(url(ana?.key), { content: 'Nice', visitor_name: 'Ana' })
      ).json<Comment>();

      // Ben cannot answer Ana's thread, nor the team's note; Ana answers her own.
      expectError(
        await visitor(t).post(url(ben?.key), {
          content: 'Agreed',
          visitor_name: 'Ben',
          parent_id: anaComment.id,
        }),
        404,
        'Comment not found',
      );
      expectError(
        await visitor(t).post(url(ana?.key), {
          content: 'What bass?',
          visitor_name: 'Ana',
          parent_id: teamOnly.json<Comment>().id,
        }),
        404,
        'Comment not found',
      );
      const reply = await visitor(t).post(url(ana?.key), {
        content: 'And the outro',
        visitor_name: 'Ana',
        parent_id: anaComment.id,
      });
      expect(reply.statusCode, reply.body).toBe(201);
      // The owner answers in the team view: Ana's link shows the answer under her thread.
      const answer = await w.as.post(`/api/versions/${versionId}/comments`, {
        content: 'Thanks Ana',
        parent_id: anaComment.id,
      });
      expect(answer.statusCode, answer.body).toBe(201);
      const shown = (await visitor(t).get(url(ana?.key))).json<Comment[]>();
      expect(shown.map((c) => c.content)).toEqual(['Nice', 'And the outro', 'Thanks Ana']);
      expect(shown.map((c) => c.content)).not.toContain('Fix the bass');

      expectError(
        await visitor(t).post(url(ana?.key), { content: 'No name' }),
        400,
        'Please set your name before commenting',
      );
      // A signed-in listener who may not comment on the project comments as a visitor with
      // their name; one who may (the project's owner) under their account.
      const listener = await buildUser(t.deps.database.db, { name: 'Lena Listener' });
      const signedIn = await api(t, listener.cookie).post(url(ana?.key), { content: 'Mine' });
      expect(signedIn.statusCode, signedIn.body).toBe(201);
      expect(signedIn.json<Comment>()).toMatchObject({
        user_id: null,
        visitor_name: 'Lena Listener',
        author: 'Lena Listener',
      });
      const member = await w.as.post(url(ana?.key), { content: 'Ours' });
      expect(member.statusCode, member.body).toBe(201);
      expect(member.json<Comment>()).toMatchObject({ user_id: w.me.id });
    });

    it('answers 404 for an item not in the collection and 401 while the link is locked', async () => {
      const w = await world();
      const [open] = await shareCollection(w.as, w.collection.id);
      expectError(
        await visitor(t).get(`/api/collection-links/${open?.key}/items/${w.otherItem.id}/comments`),
        404,
        'Item not found',
      );
      expectError(
        await visitor(t).post(
          `/api/collection-links/${open?.key}/items/${w.otherItem.id}/comments`,
          { content: 'Hi', visitor_name: 'X' },
        ),
        404,
        'Item not found',
      );
      const [locked] = await shareCollection(w.as, w.collection.id, {
        name: 'Locked',
        password: 'correct horse',
      });
      const url = `/api/collection-links/${locked?.key}/items/${w.itemIds[0]}/comments`;
      expectError(await visitor(t).get(url), 401, 'This link needs a password');
      expectError(
        await visitor(t).post(url, { content: 'Hi', visitor_name: 'X' }),
        401,
        'This link needs a password',
      );
    });
  });

  describe('downloads', () => {
    it('gives the original as an attachment when allowed, counted as a download; 403 otherwise', async () => {
      const w = await world();
      const [closed] = await shareCollection(w.as, w.collection.id, { name: 'Listen only' });
      const [allowed] = await shareCollection(w.as, w.collection.id, {
        name: 'Download',
        download_enabled: true,
      });
      const anon = visitor(t);
      const closedPage = (
        await anon.get(`/api/collection-links/${closed?.key}`)
      ).json<SharedCollection>();
      expect(closedPage.download_enabled).toBe(false);
      expect(closedPage.items.map((item) => item.download_url)).toEqual([null, null, null]);
      expectError(
        await anon.get(`/api/collection-links/${closed?.key}/items/${w.itemIds[0]}/download`),
        403,
        'Downloads are not allowed for this link',
      );

      const page = (
        await anon.get(`/api/collection-links/${allowed?.key}`)
      ).json<SharedCollection>();
      expect(page.download_enabled).toBe(true);
      const url = page.items[1]?.download_url;
      expect(url).toBe(`/api/collection-links/${allowed?.key}/items/${w.itemIds[1]}/download`);
      const file = await anon.get(url ?? '');
      expect(file.statusCode, file.body.slice(0, 200)).toBe(200);
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="Band Demos-/);
      expect(file.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
      const receipts = (await links(w)).find((link) => link.id === allowed?.id)?.receipts;
      expect(receipts).toEqual([
        expect.objectContaining({ item_id: w.itemIds[1], downloads: 1, plays_started: 0 }),
      ]);
      expectError(
        await anon.get(`/api/collection-links/${allowed?.key}/items/${w.otherItem.id}/download`),
        404,
        'Item not found',
      );
    });
  });

  describe('first play', () => {
    it("tells the collection's owner once, in their notifications only: never the project's team or feed", async () => {
      const w = await world();
      const [ana, ben] = await shareCollection(w.as, w.collection.id, {
        name: 'EP pitch',
        recipients: [{ name: 'Ana' }, { name: 'Ben' }],
      });
      const receipt = (key: string | undefined, itemId: string | undefined, event = 'play') =>
        visitor(t).post(`/api/collection-links/${key}/items/${itemId}/receipts`, { event });
      // Ana starts two items at once, then again; and a 30-second listen is no first play.
      expect((await receipt(ana?.key, w.itemIds[0], 'played_30s')).statusCode).toBe(204);
      const started = await Promise.all([
        receipt(ana?.key, w.itemIds[0]),
        receipt(ana?.key, w.itemIds[1]),
        receipt(ana?.key, w.itemIds[1]),
      ]);
      expect(started.map((r) => r.statusCode)).toEqual([204, 204, 204]);
      await receipt(ana?.key, w.itemIds[2]);
      type Page = {
        items: { activity: { kind: string; summary: string; href: string | null } }[];
      };
      const mine = () =>
        w.as
          .get('/api/notifications')
          .then((r) =>
            r.json<Page>().items.filter((n) => n.activity.kind.startsWith('collection')),
          );
      expect((await mine()).map((n) => n.activity)).toEqual([
        expect.objectContaining({
          summary: "Ana played the collection 'For the label' for the first time",
          href: `/collections/${w.collection.id}`,
        }),
      ]);
      // Ben's first play is his link's own.
      await receipt(ben?.key, w.itemIds[2]);
      expect((await mine()).map((n) => n.activity.summary)).toEqual([
        "Ben played the collection 'For the label' for the first time",
        "Ana played the collection 'For the label' for the first time",
      ]);
      // The band project's owner hears nothing, and neither project's feed shows it.
      const band = api(t, w.bandOwner.cookie);
      const theirs = (await band.get('/api/notifications')).json<Page>().items;
      expect(theirs.filter((n) => n.activity.kind.startsWith('collection'))).toEqual([]);
      for (const [as, projectId] of [
        [band, w.band.project.id],
        [w.as, w.mine.project.id],
      ] as const) {
        const feed = await as.get(`/api/projects/${projectId}/activity`);
        expect(feed.statusCode, feed.body).toBe(200);
        expect(feed.body).not.toContain('collection_link');
        expect(feed.body).not.toContain('For the label');
      }
    });
  });

  describe('opening by key', () => {
    it("a version link's lookup says a collection key is one, without counting it as a guess", async () => {
      const w = await world();
      const [link] = await shareCollection(w.as, w.collection.id);
      const anon = visitor(t);
      // More lookups than the 20 misses an address may make.
      for (let i = 0; i < 25; i++) {
        const response = await anon.get(`/api/links/hash/${link?.key}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          error: 'Link not found',
          code: 'link_is_collection',
          details: { kind: 'collection' },
        });
      }
      expect((await anon.get(`/api/collection-links/${link?.key}`)).statusCode).toBe(200);
      // A revoked collection link is an unknown key like any other.
      await w.as.delete(`/api/collections/${w.collection.id}/links/${link?.id}`);
      expect((await visitor(t).get(`/api/links/hash/${link?.key}`)).json()).toEqual({
        error: 'Link not found',
        code: 'link_not_found',
      });
    });
  });
});
