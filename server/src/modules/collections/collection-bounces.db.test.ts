import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_MESSAGES,
  type Collection,
  type SharedCollection,
} from '@takes/contract';
import { api } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { expectError, shareCollection, visitor } from '../../../test/collection-world';
import { addMember, buildRepo, buildUser, depsOf, publishBounce } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

/** Bounces as collection items: added from a repository, played and shared like versions. */
describe('bounces in collections', () => {
  let t: TestApp;
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-collection-bounces-'));
    t = await createTestApp();
    wav = await makeAudio(dir, 'wav', 1, 'Night Drive (final).wav');
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Rae owns a repository with a bounce and a collection holding it; Sam owns another repository. */
  async function world() {
    const db = t.deps.database.db;
    const rae = await buildUser(db, { name: 'Rae' });
    const sam = await buildUser(db, { name: 'Sam' });
    const repo = await buildRepo(db, rae.id, { name: 'Studio Sessions' });
    const samRepo = await buildRepo(db, sam.id, { name: 'Sam Private' });
    const bounce = await publishBounce(depsOf(t), repo.id, wav, { branch: 'mixing' });
    const samBounce = await publishBounce(depsOf(t), samRepo.id, wav);
    const as = api(t, rae.cookie);
    const collection = (await as.post('/api/collections', { name: 'EP' })).json<{ id: string }>();
    const url = `/api/collections/${collection.id}`;
    const added = await as.post(`${url}/items`, { bounce_id: bounce.id });
    expect(added.statusCode, added.body).toBe(201);
    return {
      rae,
      sam,
      repo,
      samRepo,
      bounce,
      samBounce,
      as,
      collectionId: collection.id,
      url,
      itemId: added.json<{ id: string }>().id,
    };
  }

  it('adds a bounce the caller may listen to, once, and shows it with its repository', async () => {
    const w = await world();
    const got = (await w.as.get(w.url)).json<Collection>();
    expect(got.items).toEqual([
      {
        id: w.itemId,
        position: 0,
        kind: 'bounce',
        unavailable: false,
        bounce_id: w.bounce.id,
        title: 'Night Drive (final)',
        repo_id: w.repo.id,
        repo_name: 'Studio Sessions',
        branch_name: 'mixing',
        duration: expect.any(Number) as number,
        status: 'completed',
        stream_url: `/api/repos/${w.repo.id}/bounces/${w.bounce.id}/stream`,
        link_unavailable_reason: null,
      },
    ]);
    const first = got.items[0];
    expect(got.total_duration).toBe(first?.unavailable === false ? first.duration : -1);
    expect(got.total_duration).toBeGreaterThan(0);
    const stream = await w.as.get(
      got.items[0]?.unavailable === false ? got.items[0].stream_url : '',
    );
    expect(stream.statusCode).toBe(200);

    expectError(
      await w.as.post(`${w.url}/items`, { bounce_id: w.bounce.id }),
      409,
      COLLECTION_MESSAGES.duplicateBounce,
    );
    // Someone else's bounce is not found, exactly like a missing one.
    expectError(
      await w.as.post(`${w.url}/items`, { bounce_id: w.samBounce.id }),
      404,
      'Bounce not found',
    );
    const both = await w.as.post(`${w.url}/items`, { bounce_id: w.bounce.id, version_id: 'v' });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain(COLLECTION_MESSAGES.oneTarget);
  });

  it("shows a member who may not read the repository nothing of it, and a reader's it", async () => {
    const w = await world();
    const db = t.deps.database.db;
    await addMember(db, { collectionId: w.collectionId }, w.sam.id, 'viewer');
    const seen = (await api(t, w.sam.cookie).get(w.url)).json<Collection>();
    expect(seen.items).toEqual([
      {
        id: w.itemId,
        position: 0,
        kind: 'bounce',
        unavailable: true,
        reason: 'no_access',
        link_unavailable_reason: null,
      },
    ]);
    await addMember(db, { repoId: w.repo.id }, w.sam.id, 'viewer');
    const reader = (await api(t, w.sam.cookie).get(w.url)).json<Collection>();
    expect(reader.items[0]).toMatchObject({ unavailable: false, bounce_id: w.bounce.id });
  });

  it('plays, downloads and counts a bounce through a link; it takes no comments', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collectionId, {
      name: 'Label',
      download_enabled: true,
    });
    const guest = visitor(t);
    const page = (await guest.get(`/api/collection-links/${link?.key}`)).json<SharedCollection>();
    expect(page.items).toEqual([
      expect.objectContaining({
        id: w.itemId,
        kind: 'bounce',
        title: 'Night Drive (final)',
        project_name: 'Studio Sessions',
        commentable: false,
      }),
    ]);
    const item = `/api/collection-links/${link?.key}/items/${w.itemId}`;
    const stream = await guest.get(`${item}/stream`);
    expect(stream.statusCode, stream.body).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^audio\//);
    const download = await guest.get(`${item}/download`);
    expect([200, 302]).toContain(download.statusCode);
    expect(String(download.headers['content-disposition'] ?? download.headers.location)).toContain(
      'Studio Sessions',
    );
    expect((await guest.post(`${item}/receipts`, { event: 'play' })).statusCode).toBe(204);

    expectError(await guest.get(`${item}/comments`), 409, COLLECTION_LINK_MESSAGES.noComments);
    expectError(
      await guest.post(`${item}/comments`, { content: 'Nice', visitor_name: 'Ana' }),
      409,
      COLLECTION_LINK_MESSAGES.noComments,
    );

    // The owner sees the receipt, and hears of the first play.
    const links = (await w.as.get(`${w.url}/links`)).json<{
      links: { id: string; receipts: { item_id: string; downloads: number; plays: number }[] }[];
    }>().links;
    expect(links[0]?.receipts).toEqual([
      expect.objectContaining({ item_id: w.itemId, downloads: 1 }),
    ]);
    const played = await t.deps.database.db
      .selectFrom('activity')
      .select(['repo_id', 'project_id'])
      .where('kind', '=', 'collection_link.first_played')
      .where('target_id', '=', link?.id ?? '')
      .execute();
    expect(played).toEqual([{ repo_id: w.repo.id, project_id: null }]);
    const notified = (await w.as.get('/api/notifications')).json<{
      items: { activity: { kind: string; href: string | null } }[];
    }>().items;
    expect(
      notified
        .filter((n) => n.activity.kind === 'collection_link.first_played')
        .map((n) => n.activity.href),
    ).toEqual([`/collections/${w.collectionId}`]);
    // The repository's feed and the dashboard's activity count leave it out.
    const feed = await w.as.get(`/api/repos/${w.repo.id}/activity`);
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.body).not.toContain('collection_link');
    const counted = await t.deps.database.db
      .selectFrom('activity')
      .select('kind')
      .where('repo_id', '=', w.repo.id)
      .where('kind', '<>', 'collection_link.first_played')
      .execute();
    const stats = (await w.as.get('/api/stats')).json<{ activity_last_month: number }>();
    expect(stats.activity_last_month).toBe(counted.length);

    // 'Download all' holds it, named after its title.
    const opened = await t.services.collectionLinks.open(link?.key ?? '', guest.address, undefined);
    const downloads = await t.services.collectionLinks.downloads(opened);
    expect(downloads.map((d) => d.title)).toEqual(['Night Drive (final)']);
  });

  it('drops the bounce from a link once the owner may no longer read its repository, and the item with the bounce', async () => {
    const w = await world();
    const db = t.deps.database.db;
    // Rae adds Sam's bounce while an Editor of Sam's repository (she may share it) …
    await addMember(db, { repoId: w.samRepo.id }, w.rae.id, 'editor');
    const added = await w.as.post(`${w.url}/items`, { bounce_id: w.samBounce.id });
    expect(added.statusCode, added.body).toBe(201);
    const [link] = await shareCollection(w.as, w.collectionId);
    const open = async () =>
      (await visitor(t).get(`/api/collection-links/${link?.key}`)).json<SharedCollection>().items;
    expect(await open()).toHaveLength(2);
    // … and is removed from it: the link shows only her own.
    await db.deleteFrom('repo_members').where('user_id', '=', w.rae.id).execute();
    expect((await open()).map((item) => item.id)).toEqual([w.itemId]);
    expectError(
      await visitor(t).get(
        `/api/collection-links/${link?.key}/items/${added.json<{ id: string }>().id}/stream`,
      ),
      404,
      COLLECTION_LINK_MESSAGES.itemNotFound,
    );

    // Deleting the bounce removes its item.
    expect((await w.as.delete(`/api/repos/${w.repo.id}/bounces/${w.bounce.id}`)).statusCode).toBe(
      204,
    );
    const left = (await w.as.get(w.url)).json<Collection>();
    expect(left.items.map((item) => item.id)).toEqual([added.json<{ id: string }>().id]);
  });
});
