import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../test/api';
import { makeAudio } from '../../test/audio-fixtures';
import { startLoopbackS3, type LoopbackS3 } from '../../test/s3-server';
import { ORIGIN } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';
import { S3ObjectStore } from '../storage/s3';

// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A project name with a quote, a slash and letters outside ASCII: the download name's test. */
const PROJECT = 'Nuit "Blanche" / été';

function uploadCover(t: TestApp, cookie: string, repoId: string) {
  const boundary = '----takescover';
  return t.app.inject({
    method: 'POST',
    url: `/api/repos/${repoId}/cover`,
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="cover_image"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: {
      cookie,
      origin: ORIGIN,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
}

function csp(headers: Record<string, unknown>): Map<string, string[]> {
  const value = String(headers['content-security-policy']);
  return new Map(
    value.split(';').map((directive) => {
      const [name = '', ...sources] = directive.trim().split(/\s+/);
      return [name, sources] as [string, string[]];
    }),
  );
}

/** Uploads a short WAV as a new project and waits for its renditions. */
async function processedVersion(t: TestApp, cookie: string, wav: string) {
  const owner = api(t, cookie);
  const upload = await owner.upload({ path: wav }, { project_name: PROJECT });
  expect(upload.statusCode, upload.body).toBe(201);
  const { version_id: versionId } = upload.json<{ version_id: string }>();
  await t.deps.jobs.startWorking();
  await eventually(
    async () =>
      (await owner.get(`/api/versions/${versionId}/processing`)).json<{ status: string }>()
        .status === 'completed',
  );
  return versionId;
}

describe('S3_PRESIGNED_REDIRECT: media answered by a redirect to the bucket (s3rver)', () => {
  let s3: LoopbackS3;
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    s3 = await startLoopbackS3();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-s3-redirect-'));
    wav = await makeAudio(dir, 'wav', 2, 'Bucket Song.wav');
  });
  afterAll(async () => {
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('on: audio, downloads and covers redirect (60 s, no-store) after the access checks; Range works at the bucket', async () => {
    const t = await createTestApp({
      storage: () => new S3ObjectStore({ ...s3.options, presignedRedirect: true }),
    });
    try {
      const cookie = await newUser(t);
      const owner = api(t, cookie);
      const versionId = await processedVersion(t, cookie, wav);

      // The bytes the store holds, through Node (a page's own fetch() is never redirected).
      const direct = await owner.get(`/api/versions/${versionId}/stream?quality=high`, {
        'sec-fetch-dest': 'empty',
      });
      expect(direct.statusCode).toBe(200);
      expect(direct.headers.location).toBeUndefined();
      expect(direct.headers.vary).toContain('Sec-Fetch-Dest');
      const bytes = direct.rawPayload;
      expect(bytes.length).toBeGreaterThan(1000);

      // What an <audio> element asks for: a redirect to the bucket.
      const stream = await owner.get(`/api/versions/${versionId}/stream?quality=high`, {
        'sec-fetch-dest': 'audio',
        range: 'bytes=0-',
      });
      expect(stream.statusCode).toBe(302);
      expect(stream.headers['cache-control']).toBe('no-store');
      expect(stream.rawPayload.length).toBe(0);
      const signed = new URL(String(stream.headers.location));
      expect(signed.origin).toBe(s3.options.endpoint);
      expect(signed.searchParams.get('X-Amz-Expires')).toBe('60');
      const whole = await fetch(signed);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/mpeg');
      expect(Buffer.compare(Buffer.from(await whole.arrayBuffer()), bytes)).toBe(0);
      // The browser sends its Range to the bucket once redirected.
      const part = await fetch(signed, { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
      expect(Buffer.compare(Buffer.from(await part.arrayBuffer()), bytes.subarray(100, 200))).toBe(
        0,
      );

      // The download: the sanitised name (quote and slash gone, non-ASCII only in filename*).
      const download = await owner.get(`/api/versions/${versionId}/download`);
      expect(download.statusCode).toBe(302);
      expect(download.headers['cache-control']).toBe('no-store');
      const downloaded = await fetch(String(download.headers.location));
      expect(downloaded.status).toBe(200);
      const name = `Nuit  Blanche    été-${versionId.slice(0, 8)}.wav`;
      expect(downloaded.headers.get('content-disposition')).toBe(
        `attachment; filename="${name.replace('é', '_').replace('é', '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
      expect(
        Buffer.compare(Buffer.from(await downloaded.arrayBuffer()), fs.readFileSync(wav)),
      ).toBe(0);

      // A non-member learns nothing: 404, no redirect, no signed URL.
      const stranger = api(t, await newUser(t, 'stranger'));
      for (const url of [
        `/api/versions/${versionId}/stream?quality=high`,
        `/api/versions/${versionId}/download`,
      ]) {
        const refused = await stranger.get(url, { 'sec-fetch-dest': 'audio' });
        expect(refused.statusCode, url).toBe(404);
        expect(refused.headers.location, url).toBeUndefined();
      }

      // Share links: the listener's audio redirects; the download only when the link allows it.
      const noDownload = (await owner.post(`/api/versions/${versionId}/links`, {})).json<{
        hash: string;
      }>();
      const withDownload = (
        await owner.post(`/api/versions/${versionId}/links`, { download_enabled: true })
      ).json<{ hash: string }>();
      const listener = await t.app.inject({
        method: 'GET',
        url: `/api/links/hash/${noDownload.hash}/audio`,
        headers: { 'sec-fetch-dest': 'audio' },
      });
      expect(listener.statusCode).toBe(302);
      expect(new URL(String(listener.headers.location)).origin).toBe(s3.options.endpoint);
      const refusedDownload = await t.app.inject({
        method: 'GET',
        url: `/api/links/hash/${noDownload.hash}/download`,
      });
      expect(refusedDownload.statusCode).toBe(403);
      expect(refusedDownload.headers.location).toBeUndefined();
      const linkDownload = await t.app.inject({
        method: 'GET',
        url: `/api/links/hash/${withDownload.hash}/download`,
      });
      expect(linkDownload.statusCode).toBe(302);
      const viaLink = await fetch(String(linkDownload.headers.location));
      expect(viaLink.headers.get('content-disposition')).toContain(`filename*=UTF-8''`);
      expect(Buffer.compare(Buffer.from(await viaLink.arrayBuffer()), fs.readFileSync(wav))).toBe(
        0,
      );

      // A repository's cover.
      const repo = await owner.post('/api/repos', { name: 'Covers' });
      expect(repo.statusCode, repo.body).toBe(201);
      const repoId = repo.json<{ repo: { id: string } }>().repo.id;
      const uploaded = await uploadCover(t, cookie, repoId);
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const cover = await owner.get(`/api/repos/${repoId}/cover`, { 'sec-fetch-dest': 'image' });
      expect(cover.statusCode).toBe(302);
      const image = await fetch(String(cover.headers.location));
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.compare(Buffer.from(await image.arrayBuffer()), PNG)).toBe(0);
      expect((await stranger.get(`/api/repos/${repoId}/cover`)).statusCode).toBe(404);

      // The CSP lets pages load media and images from the bucket, and nothing else from it.
      const policy = csp((await t.app.inject({ method: 'GET', url: '/api/health' })).headers);
      expect(policy.get('media-src')).toContain(s3.options.endpoint);
      expect(policy.get('img-src')).toContain(s3.options.endpoint);
      for (const [directive, sources] of policy) {
        if (directive === 'media-src' || directive === 'img-src') continue;
        expect(sources, directive).not.toContain(s3.options.endpoint);
      }
      expect(policy.get('connect-src')).toEqual(["'self'"]);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('off (the default): the bytes pass through as before, and the CSP names no bucket', async () => {
    const t = await createTestApp({ storage: () => new S3ObjectStore(s3.options) });
    try {
      const cookie = await newUser(t);
      const owner = api(t, cookie);
      const versionId = await processedVersion(t, cookie, wav);
      const part = await owner.get(`/api/versions/${versionId}/stream?quality=high`, {
        'sec-fetch-dest': 'audio',
        range: 'bytes=100-199',
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers.location).toBeUndefined();
      expect(part.headers['content-range']).toMatch(/^bytes 100-199\/\d+$/);
      expect(part.rawPayload.length).toBe(100);
      const link = (
        await owner.post(`/api/versions/${versionId}/links`, { download_enabled: true })
      ).json<{ hash: string }>();
      const viaLink = await t.app.inject({
        method: 'GET',
        url: `/api/links/hash/${link.hash}/download`,
      });
      expect(viaLink.statusCode).toBe(200);
      expect(Buffer.compare(viaLink.rawPayload, fs.readFileSync(wav))).toBe(0);
      const policy = csp(part.headers);
      for (const [directive, sources] of policy)
        expect(sources, directive).not.toContain(s3.options.endpoint);
      expect(policy.get('media-src')).toEqual(["'self'", 'blob:', 'data:']);
    } finally {
      await t.close();
    }
  }, 90_000);
});
