import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackS3, type LoopbackS3 } from '../../test/s3-server';
import { LocalObjectStore } from './local';
import {
  ObjectNotFoundError,
  ObjectTooLargeError,
  RangeNotSatisfiableError,
  type ObjectStore,
} from './object-store';
import { S3ObjectStore } from './s3';
import { putFileHashed } from './scratch-file';
import { UrlSigner } from './url-signer';

interface StoreFixture {
  store: ObjectStore;
  /** The same storage seen through a clock running `offsetSeconds` behind. */
  storeWithClockOffset: (offsetSeconds: number) => ObjectStore;
  /** Fetches a signed URL the way a browser would. */
  fetchSigned: (url: string) => Promise<Response>;
  close: () => Promise<void>;
}

let s3: LoopbackS3;
beforeAll(async () => {
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3.close();
});

const implementations: [string, () => StoreFixture][] = [
  [
    'local folder',
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-store-'));
      const signer = new UrlSigner('test-secret-test-secret-test-secret');
      const store = new LocalObjectStore(dir, signer);
      return {
        store,
        storeWithClockOffset: (offset) =>
          new LocalObjectStore(dir, signer, () => new Date(Date.now() + offset * 1000)),
        // The HTTP route that serves these is tested with the app; here we check the signature.
        fetchSigned: async (url) => {
          const parsed = new URL(url, 'http://local');
          const key = decodeURIComponent(parsed.pathname.replace('/api/storage/', ''));
          const ok = signer.verify(
            key,
            {
              expires: parsed.searchParams.get('expires') ?? '',
              sig: parsed.searchParams.get('sig') ?? '',
              name: parsed.searchParams.get('name') ?? undefined,
            },
            Math.floor(Date.now() / 1000),
          );
          if (!ok) return new Response('forbidden', { status: 403 });
          const { body } = await store.get(key);
          return new Response(new Uint8Array(await buffer(body)), { status: 200 });
        },
        close: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })),
      };
    },
  ],
  [
    's3 (s3rver on loopback)',
    () => {
      const store = new S3ObjectStore(s3.options);
      // Each test gets its own key space in the shared bucket.
      return {
        store,
        storeWithClockOffset: (offset) =>
          new S3ObjectStore(s3.options, () => new Date(Date.now() + offset * 1000)),
        fetchSigned: (url) => fetch(url),
        close: async () => {
          for (const item of await store.list('')) await store.delete(item.key);
          store.destroy();
        },
      };
    },
  ],
];

describe.each(implementations)('object store: %s', (_name, makeFixture) => {
  async function withStore(run: (fixture: StoreFixture) => Promise<void>): Promise<void> {
    const fixture = makeFixture();
    try {
      await run(fixture);
    } finally {
      await fixture.close();
    }
  }

  it('puts from a stream and gets the same bytes back', () =>
    withStore(async ({ store }) => {
      const data = randomBytes(300_000);
      const { size } = await store.put('originals/ab/abc.wav', Readable.from([data]));
      expect(size).toBe(data.length);
      const got = await store.get('originals/ab/abc.wav');
      expect(got.size).toBe(data.length);
      expect(Buffer.compare(await buffer(got.body), data)).toBe(0);
    }));

  it('streams a large object through in parts without changing it', () =>
    withStore(async ({ store }) => {
      // 20 MiB spans several multipart parts on S3.
      const chunk = randomBytes(1024 * 1024);
      const hash = createHash('sha256');
      function* source() {
        for (let i = 0; i < 20; i++) {
          hash.update(chunk);
          yield chunk;
        }
      }
      const { size } = await store.put('big/object.bin', Readable.from(source()));
      expect(size).toBe(20 * 1024 * 1024);
      const readBack = createHash('sha256');
      for await (const part of (await store.get('big/object.bin')).body)
        readBack.update(part as Buffer);
      expect(readBack.digest('hex')).toBe(hash.digest('hex'));
    }));

  it('reads byte ranges, open-ended ranges, and refuses unsatisfiable ones', () =>
    withStore(async ({ store }) => {
      const data = Buffer.from('0123456789abcdefghij');
      await store.put('r/key', Readable.from([data]));
      const middle = await store.get('r/key', { start: 5, end: 9 });
      expect((await buffer(middle.body)).toString()).toBe('56789');
      expect(middle).toMatchObject({ size: 20, start: 5, end: 9 });
      const tail = await store.get('r/key', { start: 15 });
      expect((await buffer(tail.body)).toString()).toBe('fghij');
      expect(tail).toMatchObject({ start: 15, end: 19 });
      await expect(store.get('r/key', { start: 20 })).rejects.toBeInstanceOf(
        RangeNotSatisfiableError,
      );
    }));

  it('heads, deletes idempotently, and reports missing objects', () =>
    withStore(async ({ store }) => {
      await store.put('h/one', Readable.from([Buffer.from('abc')]));
      expect(await store.head('h/one')).toMatchObject({ key: 'h/one', size: 3 });
      await store.delete('h/one');
      await store.delete('h/one');
      expect(await store.head('h/one')).toBeNull();
      await expect(store.get('h/one')).rejects.toBeInstanceOf(ObjectNotFoundError);
    }));

  it('lists by prefix', () =>
    withStore(async ({ store }) => {
      for (const key of ['p/a/1', 'p/a/2', 'p/b/1', 'p/ab', 'q/1']) {
        await store.put(key, Readable.from([Buffer.from(key)]));
      }
      expect((await store.list('p/a/')).map((o) => o.key)).toEqual(['p/a/1', 'p/a/2']);
      expect((await store.list('p/a')).map((o) => o.key)).toEqual(['p/a/1', 'p/a/2', 'p/ab']);
      expect((await store.list('p/')).map((o) => o.key)).toEqual([
        'p/a/1',
        'p/a/2',
        'p/ab',
        'p/b/1',
      ]);
      expect(await store.list('none/')).toEqual([]);
    }));

  it('aborts a write over the byte limit and leaves nothing behind', () =>
    withStore(async ({ store }) => {
      const data = randomBytes(64 * 1024);
      await expect(
        store.put('limited/x', Readable.from([data, data]), { maxBytes: 100_000 }),
      ).rejects.toBeInstanceOf(ObjectTooLargeError);
      expect(await store.head('limited/x')).toBeNull();
      expect(await store.list('')).toEqual([]);
    }));

  it('leaves nothing behind when the source stream fails half-way', () =>
    withStore(async ({ store }) => {
      function* failing() {
        yield randomBytes(1000);
        throw new Error('client went away');
      }
      await expect(store.put('broken/x', Readable.from(failing()))).rejects.toThrow(
        'client went away',
      );
      expect(await store.list('')).toEqual([]);
    }));

  it('stores a copy of a file from disk and leaves the file as it was (putFile)', () =>
    withStore(async ({ store }) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-putfile-'));
      try {
        const data = randomBytes(2 * 1024 * 1024 + 7);
        const file = path.join(dir, 'standard.mp3');
        fs.writeFileSync(file, data);
        expect(
          await store.putFile('renditions/cd/standard.mp3', file, { maxBytes: data.length }),
        ).toEqual({ size: data.length });
        const got = await store.get('renditions/cd/standard.mp3');
        expect(Buffer.compare(await buffer(got.body), data)).toBe(0);
        expect(Buffer.compare(fs.readFileSync(file), data)).toBe(0);

        // Again under the same key: replaced whole.
        const other = randomBytes(1000);
        fs.writeFileSync(file, other);
        await store.putFile('renditions/cd/standard.mp3', file);
        const again = await store.get('renditions/cd/standard.mp3');
        expect(Buffer.compare(await buffer(again.body), other)).toBe(0);

        // Over the limit, or missing: refused, nothing new stored.
        await expect(
          store.putFile('renditions/cd/high.mp3', file, { maxBytes: 999 }),
        ).rejects.toBeInstanceOf(ObjectTooLargeError);
        await expect(
          store.putFile('renditions/cd/high.mp3', path.join(dir, 'gone.mp3')),
        ).rejects.toMatchObject({ code: 'ENOENT' });
        expect((await store.list('')).map((o) => o.key)).toEqual(['renditions/cd/standard.mp3']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }));

  it('stores a file from disk with its SHA-256 (putFileHashed)', () =>
    withStore(async ({ store }) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-hashed-'));
      try {
        // Over several 1 MiB read chunks, and not a whole number of them.
        const data = randomBytes(3 * 1024 * 1024 + 12_345);
        const file = path.join(dir, 'high.mp3');
        fs.writeFileSync(file, data);
        const stored = await putFileHashed(store, 'renditions/ab/high.mp3', file, {
          contentType: 'audio/mpeg',
        });
        expect(stored).toEqual({
          size: data.length,
          sha256: createHash('sha256').update(data).digest('hex'),
        });
        const got = await store.get('renditions/ab/high.mp3');
        expect(Buffer.compare(await buffer(got.body), data)).toBe(0);

        // Over the limit: refused, nothing stored; a missing file: its own error, nothing stored.
        await expect(
          putFileHashed(store, 'renditions/ab/low.mp3', file, { maxBytes: 1024 * 1024 }),
        ).rejects.toBeInstanceOf(ObjectTooLargeError);
        await expect(
          putFileHashed(store, 'renditions/ab/low.mp3', path.join(dir, 'gone.mp3'), {}),
        ).rejects.toMatchObject({ code: 'ENOENT' });
        expect((await store.list('')).map((o) => o.key)).toEqual(['renditions/ab/high.mp3']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }));

  it('overwrites an existing key in one step', () =>
    withStore(async ({ store }) => {
      await store.put('o/k', Readable.from([Buffer.from('first')]));
      await store.put('o/k', Readable.from([Buffer.from('second')]));
      expect((await buffer((await store.get('o/k')).body)).toString()).toBe('second');
    }));

  it('refuses keys that are not server-made paths', () =>
    withStore(async ({ store }) => {
      for (const bad of ['../etc/passwd', '/abs', 'a//b', 'a/../b', 'with space', '']) {
        await expect(store.put(bad, Readable.from([Buffer.from('x')]))).rejects.toThrow(
          'Invalid object key',
        );
      }
    }));

  it('makes signed URLs that serve the object', () =>
    withStore(async ({ store, fetchSigned }) => {
      await store.put('s/track.mp3', Readable.from([Buffer.from('audio-bytes')]));
      const url = await store.signedUrl('s/track.mp3', {
        expiresInSeconds: 60,
        downloadName: 'My Song.mp3',
      });
      const response = await fetchSigned(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('audio-bytes');
    }));

  it('makes signed URLs that stop working once they expire', () =>
    withStore(async ({ store, storeWithClockOffset, fetchSigned }) => {
      await store.put('s/old.mp3', Readable.from([Buffer.from('audio-bytes')]));
      const signedLongAgo = storeWithClockOffset(-600);
      const url = await signedLongAgo.signedUrl('s/old.mp3', { expiresInSeconds: 60 });
      expect((await fetchSigned(url)).status).toBe(403);
    }));

  it('passes its health check', () =>
    withStore(async ({ store }) => {
      await expect(store.check()).resolves.toBeUndefined();
    }));
});
