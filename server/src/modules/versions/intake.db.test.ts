import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../../test/api';
import {
  decodedSeconds,
  ffmpegAifcAlaw,
  ffmpegAiffWithId3,
  flacFile,
  id3v2Tag,
  junk,
  lameCbr,
  lameVbrWithoutXing,
  soxAiff,
  writeFixture,
} from '../../../test/intake-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';

const FAILED =
  'This file could not be processed. It may be corrupt or truncated; try exporting it again and uploading the new file.';

/** One class of file that DAWs and taggers write: its bytes and the name it is uploaded as. */
interface Fixture {
  name: string;
  file: string;
  /** Bytes of audio at the end of the file (after any tag or padding put in front). */
  audioBytes: number;
}

let dir: string;
const fixtures: Record<string, Fixture> = {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-intake-'));
  const add = (key: string, file: string, audioBytes = fs.statSync(file).size) => {
    fixtures[key] = { name: path.basename(file), file, audioBytes };
  };
  add('AIFF 8-bit PCM', await soxAiff(dir, 'eight.aiff', 8));
  add('AIFF 16-bit PCM', await soxAiff(dir, 'sixteen.aif', 16));
  add('AIFF 24-bit PCM', await soxAiff(dir, 'twentyfour.aiff', 24));
  add('AIFF-C A-law', await ffmpegAifcAlaw(dir, 'alaw.aifc'));
  add('AIFF with an ID3 chunk', await ffmpegAiffWithId3(dir, 'tagged.aiff'));
  const flac = fs.readFileSync(await flacFile(dir, 'plain.flac'));
  add(
    'FLAC with an ID3v2 tag in front',
    // A tag larger than the sniffing window, as with cover art.
    writeFixture(dir, 'tagged.flac', Buffer.concat([id3v2Tag('Take 3', 70_000), flac])),
    flac.length,
  );
  const mp3 = fs.readFileSync(await lameCbr(dir, 'plain.mp3'));
  add(
    'MP3 with zero padding before the first frame',
    writeFixture(dir, 'padded.mp3', Buffer.concat([Buffer.alloc(3000), mp3])),
    mp3.length,
  );
  add(
    'MP3 with junk before the first frame',
    writeFixture(dir, 'junk.mp3', Buffer.concat([junk(5000), mp3])),
    mp3.length,
  );
  add(
    'MP3 with an ID3v2 tag and padding',
    writeFixture(dir, 'tag-pad.mp3', Buffer.concat([id3v2Tag('Rough'), Buffer.alloc(700), mp3])),
    mp3.length,
  );
  add('VBR MP3 without a Xing header', await lameVbrWithoutXing(dir, 'vbr.mp3'));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Shown {
  status: string;
  error: string | null;
  waveform_data: { duration: number | null } | null;
  metadata: { duration?: number | null } | null;
}

describe('audio intake: what DAWs and taggers write', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  async function setup() {
    t = await createTestApp();
    await t.deps.jobs.startWorking();
    return api(t, await newUser(t));
  }

  async function uploadAndWait(
    owner: ReturnType<typeof api>,
    file: { content: Buffer; name: string },
  ): Promise<Shown> {
    const response = await owner.upload(file, {});
    expect(response.statusCode, response.body).toBe(201);
    const { version_id: versionId } = response.json<{ version_id: string }>();
    await eventually(
      async () =>
        (await owner.get(`/api/versions/${versionId}/processing`)).json<{ status: string }>()
          .status !== 'processing',
    );
    const shown = await owner.get(`/api/versions/${versionId}`);
    expect(shown.statusCode, shown.body).toBe(200);
    return shown.json<Shown>();
  }

  it.each([
    'AIFF 8-bit PCM',
    'AIFF 16-bit PCM',
    'AIFF 24-bit PCM',
    'AIFF-C A-law',
    'AIFF with an ID3 chunk',
    'FLAC with an ID3v2 tag in front',
    'MP3 with zero padding before the first frame',
    'MP3 with junk before the first frame',
    'MP3 with an ID3v2 tag and padding',
    'VBR MP3 without a Xing header',
  ])('accepts %s, processes it and shows its decoded length', async (key) => {
    const fixture = fixtures[key] as Fixture;
    const owner = await setup();
    const shown = await uploadAndWait(owner, {
      content: fs.readFileSync(fixture.file),
      name: fixture.name,
    });
    expect(shown).toMatchObject({ status: 'completed', error: null });
    const decoded = await decodedSeconds(fixture.file);
    const tolerance = Math.max(decoded * 0.02, 0.3);
    expect(Math.abs((shown.metadata?.duration ?? 0) - decoded)).toBeLessThanOrEqual(tolerance);
    expect(Math.abs((shown.waveform_data?.duration ?? 0) - decoded)).toBeLessThanOrEqual(tolerance);
  });

  it.each([
    'AIFF 16-bit PCM',
    'AIFF-C A-law',
    'AIFF with an ID3 chunk',
    'FLAC with an ID3v2 tag in front',
    'MP3 with zero padding before the first frame',
    'MP3 with junk before the first frame',
    'MP3 with an ID3v2 tag and padding',
  ])('ends %s cut short as failed with the message', async (key) => {
    const fixture = fixtures[key] as Fixture;
    const owner = await setup();
    const whole = fs.readFileSync(fixture.file);
    const shown = await uploadAndWait(owner, {
      content: whole.subarray(0, whole.length - Math.floor(fixture.audioBytes / 2)),
      name: fixture.name,
    });
    expect(shown).toMatchObject({ status: 'failed', error: FAILED });
  });

  it('keeps the .aif / .aiff extension in download names', async () => {
    const owner = await setup();
    for (const key of ['AIFF 16-bit PCM', 'AIFF 8-bit PCM']) {
      const fixture = fixtures[key] as Fixture;
      const response = await owner.upload(
        { content: fs.readFileSync(fixture.file), name: fixture.name },
        {},
      );
      expect(response.statusCode, response.body).toBe(201);
      const { version_id: versionId } = response.json<{ version_id: string }>();
      const download = await owner.get(`/api/versions/${versionId}/download`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('audio/aiff');
      const ext = path.extname(fixture.name);
      expect(download.headers['content-disposition']).toMatch(
        new RegExp(`-${versionId.slice(0, 8)}\\${ext}"`),
      );
    }
  });

  it('publishes an AIFF bounce, and a FLAC with a large ID3v2 tag, through to completed', async () => {
    const owner = await setup();
    const repo = (await owner.post('/api/repos', { name: 'Night Drive' })).json<{
      repo: { id: string };
    }>().repo;
    for (const key of ['AIFF 24-bit PCM', 'FLAC with an ID3v2 tag in front']) {
      const fixture = fixtures[key] as Fixture;
      const content = fs.readFileSync(fixture.file);
      const started = await owner.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: fixture.name,
        content_type: 'application/octet-stream',
      });
      expect(started.statusCode, started.body).toBe(201);
      const publish = started.json<{
        upload_url: string;
        upload_token: string;
        upload_id: string;
      }>();
      const put = await t.app.inject({
        method: 'PUT',
        url: new URL(publish.upload_url).pathname,
        payload: content,
        headers: {
          'content-type': 'application/octet-stream',
          'x-upsert-token': publish.upload_token,
        },
      });
      expect(put.statusCode, put.body).toBe(200);
      const completed = await owner.post('/api/bounces/complete', {
        repo_id: repo.id,
        branch: 'main',
        filename: fixture.name,
        size: content.length,
        upload_id: publish.upload_id,
      });
      expect(completed.statusCode, completed.body).toBe(201);
      const bounce = completed.json<{ bounce: { id: string; mime: string; filename: string } }>()
        .bounce;
      expect(bounce.filename).toBe(fixture.name);
      expect(bounce.mime).toBe(key.startsWith('AIFF') ? 'audio/aiff' : 'audio/flac');
      const url = `/api/repos/${repo.id}/bounces/${bounce.id}`;
      await eventually(
        async () =>
          (await owner.get(url)).json<{ bounce: { status: string } }>().bounce.status !==
          'processing',
      );
      const done = (await owner.get(url)).json<{
        bounce: { status: string; duration: number; waveform_json: { duration: number } };
      }>().bounce;
      expect(done.status).toBe('completed');
      const decoded = await decodedSeconds(fixture.file);
      expect(Math.abs(done.duration - decoded)).toBeLessThanOrEqual(0.3);
      expect(Math.abs(done.waveform_json.duration - decoded)).toBeLessThanOrEqual(0.3);
    }
  });

  it('refuses padding or junk without a run of MPEG frames', async () => {
    const owner = await setup();
    for (const content of [
      Buffer.alloc(20_000),
      junk(20_000),
      // A frame header that leads nowhere, after padding.
      Buffer.concat([Buffer.alloc(100), Buffer.from([0xff, 0xfb, 0x90, 0x64]), junk(5000, 3)]),
    ]) {
      const response = await owner.upload({ content, name: 'song.mp3' }, {});
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        error: 'Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.',
        code: 'unsupported',
      });
    }
  });
});
