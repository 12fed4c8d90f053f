import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLLECTION_ZIP_MESSAGES,
  COLLECTION_ZIP_STARTS_PER_HOUR,
  type CollectionLink,
  type CollectionZip,
} from '@takes/contract';
import { api, eventually } from '../../../test/api';
import {
  collectionWorld,
  expectError,
  shareCollection,
  visitor,
} from '../../../test/collection-world';
import { RateLimiter } from '../../auth/rate-limiter';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { readZip } from '../../../test/zip-reader';
import type { CollectionLinkZipsTable } from '../../db/schema';
import type { ObjectStore } from '../../storage/object-store';
import { collectionZipKey, CollectionZipsService } from './collection-zips.service';
import { CollectionZipsRepo } from './collection-zips.repo';
import { expireCollectionZipsJob } from './jobs';

/** 'Download all' on a collection link: the zip, its progress, who may have it, its expiry. */
describe('collection link zips', () => {
  let t: TestApp;
  let clock: TestClock;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-collection-zips-'));
    clock = new TestClock();
    t = await createTestApp({ clock });
    await t.deps.jobs.startWorking();
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const db = () => t.deps.database.db;
  const world = () => collectionWorld(t, dir);
  const zipRow = (id: string) =>
    db().selectFrom('collection_link_zips').selectAll().where('id', '=', id).executeTakeFirst();

  /** Starts a zip as `anon` and waits until it is ready (or failed). */
  async function zipReady(
    anon: ReturnType<typeof visitor>,
    key: string,
    cookie?: string,
  ): Promise<CollectionZip> {
    const started = await anon.post(`/api/collection-links/${key}/zip`, {}, cookie);
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json<CollectionZip>();
    let zip: CollectionZip | undefined;
    await eventually(async () => {
      const res = await anon.get(`/api/collection-links/${key}/zip/${id}`, cookie);
      expect(res.statusCode, res.body).toBe(200);
      zip = res.json<CollectionZip>();
      return zip.status === 'ready' || zip.status === 'failed';
    }, 20_000);
    return zip!;
  }

  /** The stored original of each of the world's versions. */
  async function originalsOf(versionIds: string[]): Promise<Buffer[]> {
    const out: Buffer[] = [];
    for (const id of versionIds) {
      const { original_key } = await db()
        .selectFrom('versions')
        .select('original_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const object = await t.deps.storage.get(original_key ?? '');
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      out.push(Buffer.concat(chunks));
    }
    return out;
  }

  it('builds a zip of the items the link shows, names each NN - Title, and counts downloads when it is fetched', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Label',
      download_enabled: true,
    });
    const anon = visitor(t);
    const started = await anon.post(`/api/collection-links/${link!.key}/zip`, {});
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ status: 'pending', done: 0, total: 3, file_url: null });

    const zip = await zipReady(anon, link!.key);
    expect(zip).toMatchObject({ id: started.json<CollectionZip>().id, status: 'ready', done: 3 });
    expect(zip.file_url).toBe(`/api/collection-links/${link!.key}/zip/${zip.id}/file`);
    expect(Date.parse(zip.expires_at) - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);

    const file = await anon.get(zip.file_url!);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="For the label.zip"; filename*=UTF-8''For%20the%20label.zip`,
    );
    const entries = await readZip(file.rawPayload);
    expect([...entries.keys()]).toEqual([
      '01 - First mix.wav',
      '02 - Band take.wav',
      '03 - Second mix.wav',
    ]);
    const originals = await originalsOf(w.versions.map((v) => v.id));
    expect(entries.get('01 - First mix.wav')).toEqual(originals[0]);
    expect(entries.get('02 - Band take.wav')).toEqual(originals[1]);
    expect(entries.get('03 - Second mix.wav')).toEqual(originals[2]);

    // Another listener's download counts; a later part of the file (a resumed download, here
    // from a third address) is not counted again.
    const part = await visitor(t).get(zip.file_url!);
    expect(part.statusCode).toBe(200);
    const ranged = await t.app.inject({
      method: 'GET',
      url: zip.file_url!,
      remoteAddress: visitor(t).address,
      headers: { range: 'bytes=100-199' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload).toEqual(file.rawPayload.subarray(100, 200));
    const listed = await w.as.get(`/api/collections/${w.collection.id}/links`);
    const receipts = listed.json<{ links: CollectionLink[] }>().links[0]!.receipts;
    expect(receipts.map((r) => [r.item_id, r.downloads])).toEqual(
      [...w.itemIds].sort().map((id) => [id, 2]),
    );

    // Asked again for the same takes: the fresh zip is handed out, nothing is built.
    const again = await visitor(t).post(`/api/collection-links/${link!.key}/zip`, {});
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ id: zip.id, status: 'ready' });
    expect(
      await db()
        .selectFrom('collection_link_zips')
        .select('id')
        .where('link_id', '=', link!.id)
        .execute(),
    ).toEqual([{ id: zip.id }]);
  });

  it('makes a new zip when the items change, with only the items the link shows now', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Label',
      download_enabled: true,
    });
    const anon = visitor(t);
    const first = await zipReady(anon, link!.key);
    const removed = await w.as.delete(`/api/collections/${w.collection.id}/items/${w.itemIds[1]}`);
    expect(removed.statusCode, removed.body).toBe(204);
    const second = await zipReady(anon, link!.key);
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ status: 'ready', done: 2, total: 2 });
    const entries = await readZip((await anon.get(second.file_url!)).rawPayload);
    expect([...entries.keys()]).toEqual(['01 - First mix.wav', '02 - Second mix.wav']);
  });

  describe('a ready zip the link no longer serves as it is', () => {
    /** A ready zip of the world's three takes, the owner an Editor of the band's project. */
    async function readyZip() {
      const w = await world();
      await db()
        .updateTable('project_members')
        .set({ role: 'editor' })
        .where('project_id', '=', w.band.project.id)
        .where('user_id', '=', w.me.id)
        .execute();
      const [link] = await shareCollection(w.as, w.collection.id, {
        name: 'Label',
        download_enabled: true,
      });
      const anon = visitor(t);
      const zip = await zipReady(anon, link!.key);
      expect(zip).toMatchObject({ status: 'ready', total: 3 });
      expect((await anon.get(zip.file_url!)).statusCode).toBe(200);
      return { w, key: link!.key, anon, zip };
    }

    /** The old zip is refused (its file and its status); a new start builds one of what is served. */
    async function expectOutOfDate(
      { key, anon, zip }: Awaited<ReturnType<typeof readyZip>>,
      entriesNow: string[],
    ) {
      expectError(await anon.get(zip.file_url!), 410, COLLECTION_ZIP_MESSAGES.outOfDate);
      expectError(
        await anon.get(`/api/collection-links/${key}/zip/${zip.id}`),
        410,
        COLLECTION_ZIP_MESSAGES.outOfDate,
      );
      // Not handed out again: a new zip, without the item.
      const again = await anon.post(`/api/collection-links/${key}/zip`, {});
      expect(again.statusCode, again.body).toBe(202);
      expect(again.json<CollectionZip>().id).not.toBe(zip.id);
      const fresh = await zipReady(anon, key);
      expect(fresh.id).toBe(again.json<CollectionZip>().id);
      const file = await anon.get(fresh.file_url!);
      expect(file.statusCode, file.body).toBe(200);
      expect([...(await readZip(file.rawPayload)).keys()]).toEqual(entriesNow);
      // The old one stays refused.
      expectError(await anon.get(zip.file_url!), 410, COLLECTION_ZIP_MESSAGES.outOfDate);
    }

    it('is refused once an item is removed from the collection; starting again leaves it out', async () => {
      const ready = await readyZip();
      const { w } = ready;
      const removed = await w.as.delete(
        `/api/collections/${w.collection.id}/items/${w.itemIds[2]}`,
      );
      expect(removed.statusCode, removed.body).toBe(204);
      await expectOutOfDate(ready, ['01 - First mix.wav', '02 - Band take.wav']);
    });

    it("is refused once the collection's owner loses access to an item's project", async () => {
      const ready = await readyZip();
      const { w } = ready;
      const removed = await api(t, w.bandOwner.cookie).delete(
        `/api/projects/${w.band.project.id}/members/${w.me.id}`,
      );
      expect(removed.statusCode, removed.body).toBe(204);
      await expectOutOfDate(ready, ['01 - First mix.wav', '02 - Second mix.wav']);
    });
  });

  it('answers 403 when the link does not allow downloads', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collection.id, { name: 'Listen only' });
    expectError(
      await visitor(t).post(`/api/collection-links/${link!.key}/zip`, {}),
      403,
      'Downloads are not allowed for this link',
    );
    expect(
      await db()
        .selectFrom('collection_link_zips')
        .select('id')
        .where('link_id', '=', link!.id)
        .execute(),
    ).toEqual([]);
  });

  it('answers 401 on a locked link until it is unlocked', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Secret',
      download_enabled: true,
      password: 'correct horse',
    });
    const anon = visitor(t);
    const base = `/api/collection-links/${link!.key}`;
    expectError(await anon.post(`${base}/zip`, {}), 401, 'This link needs a password');
    const unlocked = await anon.post(`${base}/unlock`, { password: 'correct horse' });
    expect(unlocked.statusCode, unlocked.body).toBe(204);
    const cookie = String(unlocked.headers['set-cookie']).split(';')[0];
    const zip = await zipReady(anon, link!.key, cookie);
    expect(zip.status).toBe('ready');
    // Without the cookie neither its progress nor its file is given.
    expectError(await anon.get(`${base}/zip/${zip.id}`), 401, 'This link needs a password');
    expectError(await anon.get(`${base}/zip/${zip.id}/file`), 401, 'This link needs a password');
    expect((await anon.get(`${base}/zip/${zip.id}/file`, cookie)).statusCode).toBe(200);
  });

  it("answers 404 for another link's zip, and for every zip of a revoked link", async () => {
    const w = await world();
    const [one, two] = await shareCollection(w.as, w.collection.id, {
      name: 'Two',
      download_enabled: true,
      recipients: [{ name: 'Ana' }, { name: 'Ben' }],
    });
    const anon = visitor(t);
    const zip = await zipReady(anon, one!.key);
    const other = `/api/collection-links/${two!.key}/zip/${zip.id}`;
    expectError(await anon.get(other), 404, COLLECTION_ZIP_MESSAGES.notFound);
    expectError(await anon.get(`${other}/file`), 404, COLLECTION_ZIP_MESSAGES.notFound);

    const revoked = await w.as.delete(`/api/collections/${w.collection.id}/links/${one!.id}`);
    expect(revoked.statusCode).toBe(204);
    const own = `/api/collection-links/${one!.key}`;
    expectError(await anon.get(`${own}/zip/${zip.id}`), 404, 'Link not found');
    expectError(await anon.get(`${own}/zip/${zip.id}/file`), 404, 'Link not found');
    expectError(await anon.post(`${own}/zip`, {}), 404, 'Link not found');
  });

  it('moves from pending through building to ready, counting items as they are copied', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Label',
      download_enabled: true,
    });
    const seen: { status?: string; done?: number }[] = [];
    class RecordingRepo extends CollectionZipsRepo {
      override async update(id: string, patch: Parameters<CollectionZipsRepo['update']>[1]) {
        seen.push({ status: patch.status, done: patch.done });
        await super.update(id, patch);
      }
      override async move(
        id: string,
        from: Parameters<CollectionZipsRepo['move']>[1],
        patch: Parameters<CollectionZipsRepo['move']>[2],
      ) {
        seen.push({ status: patch.status, done: patch.done });
        return super.move(id, from, patch);
      }
    }
    const service = (storage: ObjectStore = t.deps.storage) =>
      new CollectionZipsService({
        repo: new RecordingRepo(db()),
        links: t.services.collectionLinks,
        storage,
        jobs: t.deps.jobs,
        clock,
        limiter: new RateLimiter(db(), clock),
        tmpDir: t.deps.tmpDir,
      });
    const opened = await t.services.collectionLinks.open(link!.key, '10.77.0.1', undefined);
    const downloads = await t.services.collectionLinks.downloads(opened);
    // A row as a start leaves it, not handed to the queue: this test runs the job itself.
    const pending = async (): Promise<CollectionLinkZipsTable> => {
      const at = clock.now().toISOString();
      const row: CollectionLinkZipsTable = {
        id: randomUUID(),
        link_id: link!.id,
        status: 'pending',
        done: 0,
        total: 3,
        items: JSON.stringify(downloads.map((d) => [d.itemId, d.download.key])),
        object_key: null,
        size: null,
        created_at: at,
        updated_at: at,
        expires_at: new Date(clock.now().getTime() + 86_400_000).toISOString(),
      };
      await db().insertInto('collection_link_zips').values(row).execute();
      return row;
    };
    const context = (attempt: number, lastAttempt: boolean) => ({
      attempt,
      lastAttempt,
      signal: new AbortController().signal,
      logger: { info() {}, warn() {}, error() {} },
    });
    const row = await pending();
    expect(
      (await visitor(t).get(`/api/collection-links/${link!.key}/zip/${row.id}`)).json(),
    ).toMatchObject({
      status: 'pending',
      done: 0,
      total: 3,
    });
    await service().build(row.id, context(1, false));
    expect(seen).toEqual([
      { status: 'building', done: 0 },
      { status: undefined, done: 1 },
      { status: undefined, done: 2 },
      { status: undefined, done: 3 },
      { status: 'ready', done: 3 },
    ]);
    expect(await zipRow(row.id)).toMatchObject({
      status: 'ready',
      done: 3,
      total: 3,
      object_key: collectionZipKey(row.id),
    });
    expect(fs.readdirSync(t.deps.tmpDir).filter((f) => f.startsWith('collection-zip-'))).toEqual(
      [],
    );

    // The last attempt failing half-way through an original: failed, no object, no scratch file.
    const store = t.deps.storage;
    const breaking = new Proxy(store, {
      get(target, property) {
        if (property !== 'get') {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value.bind(target) as unknown) : value;
        }
        return async (key: string) => {
          const object = await store.get(key);
          object.body.destroy();
          const body = new Readable({ read() {} });
          body.push(Buffer.alloc(100));
          setImmediate(() => body.destroy(new Error('read failed half-way')));
          return { ...object, body };
        };
      },
    });
    const failing = await pending();
    await expect(service(breaking).build(failing.id, context(1, false))).rejects.toThrow();
    expect(await zipRow(failing.id)).toMatchObject({ status: 'building', object_key: null });
    await service(breaking).build(failing.id, context(3, true));
    expect(await zipRow(failing.id)).toMatchObject({ status: 'failed', object_key: null });
    expect(await t.deps.storage.head(collectionZipKey(failing.id))).toBeNull();
    expect(fs.readdirSync(t.deps.tmpDir).filter((f) => f.startsWith('collection-zip-'))).toEqual(
      [],
    );
    const failed = await visitor(t).get(
      `/api/collection-links/${link!.key}/zip/${failing.id}/file`,
    );
    expectError(failed, 409, COLLECTION_ZIP_MESSAGES.failed);
  });

  it('limits new builds per link and address; a fresh zip handed out again is not counted', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Label',
      download_enabled: true,
    });
    const anon = visitor(t);
    const url = `/api/collection-links/${link!.key}/zip`;
    const first = await zipReady(anon, link!.key);
    for (let i = 0; i < 3; i++)
      expect((await anon.post(url, {})).json()).toMatchObject({ id: first.id });
    // Each failed zip is built again when asked: those are what the limit counts.
    for (let i = 1; i < COLLECTION_ZIP_STARTS_PER_HOUR; i++) {
      await db().updateTable('collection_link_zips').set({ status: 'failed' }).execute();
      expect((await anon.post(url, {})).statusCode).toBe(202);
    }
    await db().updateTable('collection_link_zips').set({ status: 'failed' }).execute();
    const refused = await anon.post(url, {});
    expectError(refused, 429, COLLECTION_ZIP_MESSAGES.tooMany);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await visitor(t).post(url, {})).statusCode).toBe(202);
  });

  it('is downloadable for 24 hours; then 410 and the clean-up job deletes the zip and its row', async () => {
    const w = await world();
    const [link] = await shareCollection(w.as, w.collection.id, {
      name: 'Label',
      download_enabled: true,
    });
    const anon = visitor(t);
    const zip = await zipReady(anon, link!.key);
    const key = collectionZipKey(zip.id);
    expect(await t.deps.storage.head(key)).not.toBeNull();
    // A zip whose collection is deleted (its links and their zips' rows go with it).
    const gone = await world();
    const [goneLink] = await shareCollection(gone.as, gone.collection.id, {
      name: 'Gone',
      download_enabled: true,
    });
    const orphan = collectionZipKey((await zipReady(visitor(t), goneLink!.key)).id);
    expect((await gone.as.delete(`/api/collections/${gone.collection.id}`)).statusCode).toBe(204);
    expect(await t.deps.storage.head(orphan)).not.toBeNull();
    clock.advance(23 * 60 * 60 * 1000);
    expect((await anon.get(zip.file_url!)).statusCode).toBe(200);
    clock.advance(61 * 60 * 1000);
    expectError(await anon.get(zip.file_url!), 410, COLLECTION_ZIP_MESSAGES.expired);
    expectError(
      await anon.get(`/api/collection-links/${link!.key}/zip/${zip.id}`),
      410,
      COLLECTION_ZIP_MESSAGES.expired,
    );

    await t.deps.jobs.enqueue(expireCollectionZipsJob, {});
    await eventually(async () => (await t.deps.storage.head(key)) === null, 10_000);
    await eventually(async () => (await t.deps.storage.head(orphan)) === null, 10_000);
    await eventually(async () => (await zipRow(zip.id)) === undefined, 10_000);
    expectError(await anon.get(zip.file_url!), 404, COLLECTION_ZIP_MESSAGES.notFound);
    // A new one is built when asked.
    const fresh = await anon.post(`/api/collection-links/${link!.key}/zip`, {});
    expect(fresh.statusCode).toBe(202);
    expect(fresh.json<CollectionZip>().id).not.toBe(zip.id);
  });
});
