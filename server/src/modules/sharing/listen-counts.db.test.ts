import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionLink, ShareLink } from '@takes/contract';
import { api } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { collectionWorld, shareCollection, visitor } from '../../../test/collection-world';
import { buildProject, buildUser, buildVersion, depsOf } from '../../../test/factories';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { testDialect } from '../../../test/test-database';

const HOUR = 60 * 60 * 1000;

/**
 * A link's play and download counts take one per listener (a signed-in person, else the
 * address) and address an hour: asking again, even all at once, does not inflate them.
 */
describe(`share links count each listener once an hour (${testDialect()})`, () => {
  let t: TestApp;
  let clock: TestClock;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-listen-counts-'));
    clock = new TestClock();
    t = await createTestApp({ clock });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const db = () => t.deps.database.db;

  it("a version link's plays: five from one listener count once; another address, a signed-in person and the next hour count again", async () => {
    const wav = await makeAudio(dir, 'wav', 1, 'take.wav');
    const olivia = await buildUser(db(), { name: 'Olivia' });
    const { project, branch } = await buildProject(db(), olivia.id, { name: 'Client Mix' });
    const version = await buildVersion(
      depsOf(t),
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true },
    );
    const as = api(t, olivia.cookie);
    const made = await as.post(`/api/versions/${version.id}/links`, { download_enabled: false });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json<ShareLink>();
    const url = `/api/links/hash/${link.hash}/audio`;
    const playCount = async () =>
      (await as.get(`/api/versions/${version.id}/links`))
        .json<ShareLink[]>()
        .find((l) => l.id === link.id)?.play_count;
    const plays = async (who: ReturnType<typeof visitor>, times: number, cookie?: string) => {
      const answers = await Promise.all(Array.from({ length: times }, () => who.get(url, cookie)));
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    };

    const listener = visitor(t);
    await plays(listener, 5);
    expect(await playCount()).toBe(1);
    await plays(listener, 2);
    expect(await playCount()).toBe(1);
    // The first play is still noted, once.
    const firstPlays = await db()
      .selectFrom('activity')
      .select('id')
      .where('kind', '=', 'link.first_played')
      .where('target_id', '=', link.id)
      .execute();
    expect(firstPlays).toHaveLength(1);

    // Another address; a signed-in person on the same address: each a listener of their own.
    await plays(visitor(t), 3);
    expect(await playCount()).toBe(2);
    const lena = await buildUser(db(), { name: 'Lena' });
    await plays(visitor(t, listener.address), 3, lena.cookie);
    expect(await playCount()).toBe(3);

    // An hour later the same listener counts again (once).
    clock.advance(HOUR + 60_000);
    await plays(listener, 3);
    expect(await playCount()).toBe(4);
  });

  it("a collection link's receipts and downloads: once per listener and address an hour; the first play noted once", async () => {
    const w = await collectionWorld(t, dir);
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Press',
      download_enabled: true,
    });
    const item = w.itemIds[0];
    const base = `/api/collection-links/${link?.key}/items/${item}`;
    const receipts = async () => {
      const listed = (await w.as.get(`/api/collections/${w.collection.id}/links`)).json<{
        links: CollectionLink[];
      }>().links;
      const found = listed.find((l) => l.id === link?.id)?.receipts.find((r) => r.item_id === item);
      return found && [found.plays_started, found.plays_30s, found.plays_90, found.downloads];
    };
    /** `times` plays, 30-second listens and downloads at once by one listener. */
    const visit = async (who: ReturnType<typeof visitor>, times: number, cookie?: string) => {
      const answers = await Promise.all(
        Array.from({ length: times }, () => [
          who.post(`${base}/receipts`, { event: 'play' }, cookie),
          who.post(`${base}/receipts`, { event: 'played_30s' }, cookie),
          who.get(`${base}/download`, cookie),
        ]).flat(),
      );
      for (const answer of answers) expect([200, 204], answer.body).toContain(answer.statusCode);
    };

    const listener = visitor(t);
    await visit(listener, 5);
    expect(await receipts()).toEqual([1, 1, 0, 1]);
    await visit(listener, 1);
    expect(await receipts()).toEqual([1, 1, 0, 1]);
    // The collection's owner heard of the first play once.
    type Page = { items: { activity: { kind: string; target_id?: string } }[] };
    const notified = (await w.as.get('/api/notifications'))
      .json<Page>()
      .items.filter((n) => n.activity.kind === 'collection_link.first_played');
    expect(notified).toHaveLength(1);

    await visit(visitor(t), 2);
    expect(await receipts()).toEqual([2, 2, 0, 2]);
    const lena = await buildUser(db(), { name: 'Lena' });
    await visit(visitor(t, listener.address), 2, lena.cookie);
    expect(await receipts()).toEqual([3, 3, 0, 3]);

    clock.advance(HOUR + 60_000);
    await visit(listener, 3);
    expect(await receipts()).toEqual([4, 4, 0, 4]);
    const again = (await w.as.get('/api/notifications'))
      .json<Page>()
      .items.filter((n) => n.activity.kind === 'collection_link.first_played');
    expect(again).toHaveLength(1);
  });
});
