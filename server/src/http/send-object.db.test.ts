import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { startLoopbackS3, type LoopbackS3 } from '../../test/s3-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { S3ObjectStore } from '../storage/s3';

let dir: string;
let wavA: string;
let wavB: string;
let s3: LoopbackS3;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-etag-'));
  wavA = await makeAudio(dir, 'wav', 2, 'Take A.wav');
  wavB = await makeAudio(dir, 'wav', 3, 'Take B.wav');
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(['local', 's3'] as const)(
  'ETags and If-Range of stored audio (%s storage)',
  (kind) => {
    let t: TestApp;
    afterEach(async () => {
      await t.close();
    });

    async function setup() {
      t = await createTestApp(
        kind === 's3' ? { storage: () => new S3ObjectStore(s3.options) } : {},
      );
      const owner = api(t, await newUser(t));
      const ids: string[] = [];
      for (const file of [wavA, wavB]) {
        const upload = await owner.upload({ path: file }, {});
        expect(upload.statusCode, upload.body).toBe(201);
        ids.push(upload.json<{ version_id: string }>().version_id);
      }
      await t.deps.jobs.startWorking();
      await eventually(async () => {
        for (const id of ids) {
          const status = (await owner.get(`/api/versions/${id}/processing`)).json<{
            status: string;
          }>().status;
          if (status !== 'completed') return false;
        }
        return true;
      });
      return { owner, ids: ids as [string, string] };
    }

    it("two versions' renditions have different content-hash ETags; 304, If-Range 206 and a stale If-Range 200", async () => {
      const { owner, ids } = await setup();
      const urlA = `/api/versions/${ids[0]}/stream?quality=high`;
      const urlB = `/api/versions/${ids[1]}/stream?quality=high`;
      const a = await owner.get(urlA);
      const b = await owner.get(urlB);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      // The ETag is the SHA-256 of the bytes sent, not the file name both share.
      expect(a.headers.etag).toBe(`"${sha256(a.rawPayload)}"`);
      expect(b.headers.etag).toBe(`"${sha256(b.rawPayload)}"`);
      expect(a.headers.etag).not.toBe(b.headers.etag);
      expect(a.headers.etag).not.toBe('"high.mp3"');

      expect((await owner.get(urlA, { 'if-none-match': String(a.headers.etag) })).statusCode).toBe(
        304,
      );
      // Another version's ETag is not this one's.
      expect((await owner.get(urlA, { 'if-none-match': String(b.headers.etag) })).statusCode).toBe(
        200,
      );

      const fresh = await owner.get(urlA, {
        range: 'bytes=10-19',
        'if-range': String(a.headers.etag),
      });
      expect(fresh.statusCode).toBe(206);
      expect(fresh.headers['content-range']).toBe(`bytes 10-19/${a.rawPayload.length}`);
      expect(Buffer.compare(fresh.rawPayload, a.rawPayload.subarray(10, 20))).toBe(0);

      const stale = await owner.get(urlA, {
        range: 'bytes=10-19',
        'if-range': String(b.headers.etag),
      });
      expect(stale.statusCode).toBe(200);
      expect(stale.headers['content-range']).toBeUndefined();
      expect(Buffer.compare(stale.rawPayload, a.rawPayload)).toBe(0);

      const weak = await owner.get(urlA, {
        range: 'bytes=10-19',
        'if-range': `W/${String(a.headers.etag)}`,
      });
      expect(weak.statusCode).toBe(200);

      const byDate = await owner.get(urlA, {
        range: 'bytes=0-9',
        'if-range': String(a.headers['last-modified']),
      });
      expect(byDate.statusCode).toBe(206);
      const oldDate = await owner.get(urlA, {
        range: 'bytes=0-9',
        'if-range': new Date(
          Date.parse(String(a.headers['last-modified'])) - 86_400_000,
        ).toUTCString(),
      });
      expect(oldDate.statusCode).toBe(200);
    }, 90_000);

    it('originals carry the SHA-256 of their bytes, and If-Range works on them too', async () => {
      const { owner, ids } = await setup();
      const url = `/api/versions/${ids[1]}/stream?quality=original`;
      const whole = await owner.get(url);
      const bytes = fs.readFileSync(wavB);
      expect(whole.headers.etag).toBe(`"${sha256(bytes)}"`);
      const part = await owner.get(url, {
        range: 'bytes=0-3',
        'if-range': String(whole.headers.etag),
      });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.toString('latin1')).toBe('RIFF');
    }, 90_000);

    it("a rendition processed before hashes were recorded: the store's own validator, or none", async () => {
      const { owner, ids } = await setup();
      const { db } = t.deps.database;
      const row = await db
        .selectFrom('versions')
        .select('renditions')
        .where('id', '=', ids[0])
        .executeTakeFirstOrThrow();
      const renditions = JSON.parse(row.renditions) as Record<string, { sha256?: string }>;
      for (const r of Object.values(renditions)) delete r.sha256;
      await db
        .updateTable('versions')
        .set({ renditions: JSON.stringify(renditions) })
        .where('id', '=', ids[0])
        .execute();
      const url = `/api/versions/${ids[0]}/stream?quality=standard`;
      const whole = await owner.get(url);
      expect(whole.statusCode).toBe(200);
      if (kind === 's3') {
        // S3's ETag of a single-part object is the MD5 of its content.
        expect(whole.headers.etag).toBe(
          `"${createHash('md5').update(whole.rawPayload).digest('hex')}"`,
        );
        const part = await owner.get(url, {
          range: 'bytes=0-9',
          'if-range': String(whole.headers.etag),
        });
        expect(part.statusCode).toBe(206);
      } else {
        // Never the file name: without a known hash there is no ETag, and an If-Range ETag
        // cannot match (the whole file is sent).
        expect(whole.headers.etag).toBeUndefined();
        const part = await owner.get(url, { range: 'bytes=0-9', 'if-range': '"standard.mp3"' });
        expect(part.statusCode).toBe(200);
      }
    }, 90_000);
  },
);
