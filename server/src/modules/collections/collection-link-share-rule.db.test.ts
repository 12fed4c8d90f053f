import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_MESSAGES,
  type Collection,
  type MemberRole,
  type SharedCollection,
} from '@takes/contract';
import { makeAudio } from '../../../test/audio-fixtures';
import { api } from '../../../test/api';
import { addMember, buildRepo, depsOf, publishBounce } from '../../../test/factories';
import {
  collectionWorld,
  expectError,
  shareCollection,
  visitor,
} from '../../../test/collection-world';
import { createTestApp, type TestApp } from '../../../test/test-app';

/**
 * A collection link serves an item only while the collection's owner may share its project (or
 * repository): Editor and up. A Viewer or Commenter adds what they may listen to, but their link
 * never plays, downloads or takes comments on it, and their collection page says why.
 */
describe('what a collection link may serve', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-collection-share-rule-'));
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The world's collection, its owner only a `bandRole` of the band's project, shared with downloads. */
  async function sharedBy(bandRole: MemberRole) {
    const w = await collectionWorld(t, dir, { bandRole });
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'For the label',
      download_enabled: true,
    });
    const key = link?.key ?? '';
    const bandItem = w.itemIds[1] ?? '';
    const itemUrl = (itemId: string) => `/api/collection-links/${key}/items/${itemId}`;
    return { w, key, bandItem, itemUrl };
  }

  for (const role of ['viewer', 'commenter'] as const)
    it(`never serves a take whose project the owner is only a ${role} of`, async () => {
      const { w, key, bandItem, itemUrl } = await sharedBy(role);
      const stranger = visitor(t);
      const page = (await stranger.get(`/api/collection-links/${key}`)).json<SharedCollection>();
      expect(page.items.map((item) => item.id)).toEqual([w.itemIds[0], w.itemIds[2]]);
      expect(JSON.stringify(page)).not.toContain('Band');
      for (const response of [
        await stranger.get(`${itemUrl(bandItem)}/stream`),
        await stranger.get(`${itemUrl(bandItem)}/download`),
        await stranger.get(`${itemUrl(bandItem)}/comments`),
        await stranger.post(`${itemUrl(bandItem)}/comments`, {
          content: 'Leaked?',
          visitor_name: 'Eve',
        }),
        await stranger.post(`${itemUrl(bandItem)}/receipts`, { event: 'play' }),
      ])
        expectError(response, 404, COLLECTION_LINK_MESSAGES.itemNotFound);
      // The owner's own takes still play and download.
      expect((await stranger.get(`${itemUrl(w.itemIds[0] ?? '')}/download`)).statusCode).toBe(200);
      // Nothing was stored through the link.
      const comments = await t.deps.database.db
        .selectFrom('comments')
        .select('id')
        .where('version_id', '=', w.versions[1]?.id ?? '')
        .execute();
      expect(comments).toEqual([]);
    });

  it('tells the owner on their collection page why, and nobody else; it is checked on every request', async () => {
    const { w, key, bandItem, itemUrl } = await sharedBy('viewer');
    const owned = (await w.as.get(`/api/collections/${w.collection.id}`)).json<Collection>();
    expect(owned.items.map((item) => item.link_unavailable_reason)).toEqual([
      null,
      COLLECTION_MESSAGES.linkNeedsShare,
      null,
    ]);
    expect(COLLECTION_MESSAGES.linkNeedsShare).toBe('You need Editor access to share this');
    // The item still plays for the owner themselves (they may listen to it).
    expect(owned.items[1]).toMatchObject({ unavailable: false, project_name: 'Band Demos' });

    // A member of the collection who is the band's owner (may share it) is told nothing.
    await addMember(
      t.deps.database.db,
      { collectionId: w.collection.id },
      w.bandOwner.id,
      'viewer',
    );
    const member = (
      await api(t, w.bandOwner.cookie).get(`/api/collections/${w.collection.id}`)
    ).json<Collection>();
    expect(member.items.map((item) => item.link_unavailable_reason)).toEqual([null, null, null]);

    // Made an Editor of the band: the very next request serves it, and the page stops saying so.
    await t.deps.database.db
      .updateTable('project_members')
      .set({ role: 'editor' })
      .where('project_id', '=', w.band.project.id)
      .where('user_id', '=', w.me.id)
      .execute();
    const stranger = visitor(t);
    expect((await stranger.get(`${itemUrl(bandItem)}/download`)).statusCode).toBe(200);
    const page = (await stranger.get(`/api/collection-links/${key}`)).json<SharedCollection>();
    expect(page.items.map((item) => item.id)).toEqual(w.itemIds);
    const now = (await w.as.get(`/api/collections/${w.collection.id}`)).json<Collection>();
    expect(now.items.every((item) => item.link_unavailable_reason === null)).toBe(true);

    // And back to Viewer: gone from the link again at once.
    await t.deps.database.db
      .updateTable('project_members')
      .set({ role: 'viewer' })
      .where('project_id', '=', w.band.project.id)
      .where('user_id', '=', w.me.id)
      .execute();
    expectError(
      await stranger.get(`${itemUrl(bandItem)}/stream`),
      404,
      COLLECTION_LINK_MESSAGES.itemNotFound,
    );
  });

  it('never serves a bounce whose repository the owner is only a viewer of', async () => {
    const w = await collectionWorld(t, dir);
    const wav = await makeAudio(dir, 'wav', 1, 'Rough mix.wav');
    const repo = await buildRepo(t.deps.database.db, w.bandOwner.id, { name: 'Band Sessions' });
    const bounce = await publishBounce(depsOf(t), repo.id, wav);
    await addMember(t.deps.database.db, { repoId: repo.id }, w.me.id, 'viewer');
    const added = await w.as.post(`/api/collections/${w.collection.id}/items`, {
      bounce_id: bounce.id,
    });
    expect(added.statusCode, added.body).toBe(201);
    const itemId = added.json<{ id: string }>().id;
    expect(added.json<Collection['items'][number]>().link_unavailable_reason).toBe(
      COLLECTION_MESSAGES.linkNeedsShare,
    );
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Label',
      download_enabled: true,
    });
    const stranger = visitor(t);
    const page = (
      await stranger.get(`/api/collection-links/${link?.key}`)
    ).json<SharedCollection>();
    expect(page.items.map((item) => item.id)).toEqual(w.itemIds);
    for (const suffix of ['stream', 'download'])
      expectError(
        await stranger.get(`/api/collection-links/${link?.key}/items/${itemId}/${suffix}`),
        404,
        COLLECTION_LINK_MESSAGES.itemNotFound,
      );
    // An Editor of the repository may share it.
    await t.deps.database.db
      .updateTable('repo_members')
      .set({ role: 'editor' })
      .where('repo_id', '=', repo.id)
      .where('user_id', '=', w.me.id)
      .execute();
    expect(
      (await stranger.get(`/api/collection-links/${link?.key}/items/${itemId}/download`))
        .statusCode,
    ).toBe(200);
  });
});
