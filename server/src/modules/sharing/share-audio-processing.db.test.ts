import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';

/**
 * An MP3 upload whose processing has not run yet: a link without download rights must not
 * stream the original (MP3 or not) and answers 'still processing' until the 128k rendition exists.
 */
describe('share link audio before the standard rendition exists', () => {
  let t: TestApp;
  let dir: string;
  let versionId: string;
  let owner: ReturnType<typeof api>;
  const hashes = { noDownload: '', full: '' };
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-share-audio-'));
    t = await createTestApp();
    owner = api(t, await newUser(t));
    const mp3 = await makeAudio(dir, 'mp3', 2, 'Rough.mp3');
    const upload = await owner.upload({ path: mp3 }, {});
    expect(upload.statusCode, upload.body).toBe(201);
    versionId = upload.json<{ version_id: string }>().version_id;
    // The job queue is not working yet: the version stays unprocessed.
    const make = async (body: object) =>
      (await owner.post(`/api/versions/${versionId}/links`, body)).json<{ hash: string }>().hash;
    hashes.noDownload = await make({});
    hashes.full = await make({ download_enabled: true });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the original, then streams the standard rendition once it exists', async () => {
    const processing = await owner.get(`/api/versions/${versionId}/processing`);
    expect(processing.json<{ status: string }>().status).not.toBe('completed');

    for (const quality of ['', '?quality=standard', '?quality=original', '?quality=high']) {
      const refused = await get(`/api/links/hash/${hashes.noDownload}/audio${quality}`);
      expect(refused.statusCode, quality).toBe(409);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({
        error: 'This version is still being processed. Please try again in a moment.',
        code: 'version_processing',
      });
    }
    expect((await get(`/api/links/hash/${hashes.noDownload}`)).json()).toMatchObject({
      version: { audio_ready: false },
    });

    // With download rights nothing changes: the original streams until renditions exist.
    const full = await get(`/api/links/hash/${hashes.full}/audio?quality=original`);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('audio/mpeg');
    const original = (await owner.get(`/api/versions/${versionId}/download`)).rawPayload;
    expect(full.rawPayload.equals(original)).toBe(true);
    expect((await get(`/api/links/hash/${hashes.full}`)).json()).toMatchObject({
      version: { audio_ready: true },
    });

    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await owner.get(`/api/versions/${versionId}/processing`)).json<{ status: string }>()
          .status === 'completed',
    );

    expect((await get(`/api/links/hash/${hashes.noDownload}`)).json()).toMatchObject({
      version: { audio_ready: true },
    });
    const standard = (await owner.get(`/api/versions/${versionId}/stream?quality=standard`))
      .rawPayload;
    const streamed = await get(`/api/links/hash/${hashes.noDownload}/audio?quality=original`);
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers['content-type']).toBe('audio/mpeg');
    expect(streamed.rawPayload.equals(standard)).toBe(true);
    expect(streamed.rawPayload.equals(original)).toBe(false);
  }, 90_000);
});
