import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { startLoopbackS3, type LoopbackS3 } from '../../../test/s3-server';
import { createTestApp } from '../../../test/test-app';
import { S3ObjectStore } from '../../storage/s3';

describe('versions on S3 storage (s3rver on loopback)', () => {
  let s3: LoopbackS3;
  let dir: string;
  beforeAll(async () => {
    s3 = await startLoopbackS3();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-s3-audio-'));
  });
  afterAll(async () => {
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uploads, processes, streams and hands out a 60-second signed download URL', async () => {
    const t = await createTestApp({ storage: () => new S3ObjectStore(s3.options) });
    try {
      const owner = api(t, await newUser(t));
      const wav = await makeAudio(dir, 'wav', 2, 'Bucket Song.wav');
      const upload = await owner.upload({ path: wav }, {});
      expect(upload.statusCode, upload.body).toBe(201);
      const { version_id: versionId } = upload.json<{ version_id: string }>();
      await t.deps.jobs.startWorking();
      await eventually(
        async () =>
          (await owner.get(`/api/versions/${versionId}/processing`)).json<{ status: string }>()
            .status === 'completed',
      );

      const part = await owner.get(`/api/versions/${versionId}/stream?quality=high`, {
        range: 'bytes=0-9',
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-type']).toBe('audio/mpeg');

      const download = await owner.get(`/api/versions/${versionId}/download`);
      expect(download.statusCode).toBe(302);
      const signed = new URL(String(download.headers.location));
      expect(signed.origin).toBe(s3.options.endpoint);
      expect(signed.searchParams.get('X-Amz-Expires')).toBe('60');
      const fetched = await fetch(signed);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-disposition')).toContain(
        `Bucket Song-${versionId.slice(0, 8)}.wav`,
      );
      expect(Buffer.compare(Buffer.from(await fetched.arrayBuffer()), fs.readFileSync(wav))).toBe(
        0,
      );
    } finally {
      await t.close();
    }
  }, 60_000);
});
