import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  eventually,
  losslessSettled,
  multipartUpload,
  newUser,
  ORIGIN,
} from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';

const INVALID_TYPE = 'Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.';
let dir: string;
let wav: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-audio-'));
  wav = await makeAudio(dir, 'wav', 2, 'First Take.wav');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('versions: upload, processing, streaming, download', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  async function setup(options: { uploadMaxBytes?: number } = {}) {
    t = await createTestApp(options);
    return { owner: api(t, await newUser(t)), stranger: api(t, await newUser(t, 'stranger')) };
  }

  async function processed(owner: ReturnType<typeof api>, versionId: string) {
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await owner.get(`/api/versions/${versionId}/processing`)).json<{ status: string }>()
          .status !== 'processing',
    );
    return (await owner.get(`/api/versions/${versionId}/processing`)).json<
      Record<string, unknown>
    >();
  }

  it('uploads a new track: project named after the file, main branch, version 1, then processing completes', async () => {
    const { owner } = await setup();
    const response = await owner.upload(
      { path: wav },
      { tags: JSON.stringify(['demo', ' demo ', '', 'rough']), is_private: 'true' },
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{
      version_id: string;
      project_id: string;
      branch_id: string;
      file_url: string;
      metadata: {
        duration: number;
        codec: string;
        sampleRate: number;
        channels: number;
        bitDepth: number;
      };
    }>();
    expect(body.file_url).toBe(`/api/versions/${body.version_id}/stream`);
    expect(body.metadata).toMatchObject({
      codec: 'pcm_s24le',
      sampleRate: 48000,
      channels: 2,
      bitDepth: 24,
    });
    expect(body.metadata.duration).toBeCloseTo(2, 1);
    const project: unknown = (await owner.get(`/api/projects/${body.project_id}`)).json();
    expect(project).toMatchObject({
      name: 'First Take',
      is_private: true,
      branches: [{ id: body.branch_id, name: 'main', is_default: true, version_count: 1 }],
    });
    const version: unknown = (await owner.get(`/api/versions/${body.version_id}`)).json();
    expect(version).toMatchObject({
      version_number: 1,
      tags: ['demo', 'rough'],
      status: 'processing',
      project: { name: 'First Take' },
    });

    // Playable at once, before the renditions exist.
    const early = await owner.get(`/api/versions/${body.version_id}/stream?quality=original`, {
      range: 'bytes=0-3',
    });
    expect(early.statusCode).toBe(206);
    expect(early.rawPayload.toString('latin1')).toBe('RIFF');
    expect((await owner.get(`/api/versions/${body.version_id}/qualities`)).json()).toMatchObject({
      available: ['original'],
    });

    const status = await processed(owner, body.version_id);
    expect(status).toMatchObject({
      status: 'completed',
      progress_percentage: 100,
      has_metadata: true,
      has_waveform: true,
      processing_complete: true,
      quality_progress: {
        original: { available: true, format: 'wav' },
        high: { available: true },
        standard: { available: true },
      },
    });
    const done = (await owner.get(`/api/versions/${body.version_id}`)).json<{
      waveform_data: { peaks: number[] };
      loudness: { integrated_lufs: number; true_peak_dbfs: number };
    }>();
    expect(done.waveform_data.peaks.length).toBe(40);
    // lavfi sine has amplitude 1/8; the mono downmix scales it by 1/√2.
    expect(Math.max(...done.waveform_data.peaks)).toBeCloseTo(0.125 / Math.SQRT2, 2);
    expect(done.loudness.integrated_lufs).toBeLessThan(0);
    expect(done.loudness.true_peak_dbfs).toBeLessThan(1);
    const peaks = (await owner.get(`/api/versions/${body.version_id}/peaks`)).json<{
      peaks_per_second: number;
      min_max: number[];
    }>();
    expect(peaks.peaks_per_second).toBe(20);
    expect(peaks.min_max.length).toBe(80);
    // The FLAC comes just after 'completed' (processing does not wait for it).
    await losslessSettled(t, body.version_id);
    const qualities = (await owner.get(`/api/versions/${body.version_id}/qualities`)).json<{
      available: string[];
      qualities: { high: { file_size: number } };
    }>();
    expect(qualities.available).toEqual(['original', 'lossless', 'high', 'standard']);
    const high = await owner.get(`/api/versions/${body.version_id}/stream?quality=high`);
    expect(high.headers['content-type']).toBe('audio/mpeg');
    expect(Number(high.headers['content-length'])).toBe(qualities.qualities.high.file_size);
  });

  it.each(['mp3', 'flac', 'aac', 'm4a'] as const)('accepts %s by its content', async (format) => {
    const { owner } = await setup();
    const file = await makeAudio(dir, format, 1);
    const response = await owner.upload({ path: file }, {});
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses files that are not audio by content, whatever their name', async () => {
    const { owner } = await setup();
    const renamed = await owner.upload(
      { content: Buffer.from('%PDF-1.7\n'.repeat(100)), name: 'song.wav' },
      {},
    );
    expect(renamed.statusCode).toBe(415);
    expect(renamed.json()).toEqual({ error: INVALID_TYPE, code: 'unsupported' });
    // Right magic bytes, wrong body: ffprobe has the last word.
    const fakeWav = Buffer.concat([
      Buffer.from('RIFF\x24\x00\x00\x00WAVEjunk', 'latin1'),
      Buffer.alloc(200, 7),
    ]);
    expect((await owner.upload({ content: fakeWav, name: 'x.wav' }, {})).statusCode).toBe(415);
    const empty = await owner.upload({ content: Buffer.alloc(0), name: 'empty.wav' }, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'Please select a file to upload', code: 'invalid' });
    expect(await t.deps.storage.list('')).toEqual([]);
    expect(await t.deps.database.db.selectFrom('versions').select('id').execute()).toEqual([]);
  });

  it('refuses an oversize file while it streams, with the spec message, keeping nothing', async () => {
    const { owner } = await setup({ uploadMaxBytes: 100_000 });
    const big = await makeAudio(dir, 'wav', 3, 'big.wav');
    const response = await owner.upload({ path: big }, {});
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error:
        'File size exceeds the 500MB limit. Please upload a smaller file or contact support for assistance with very large files.',
      code: 'too_large',
    });
    expect(await t.deps.storage.list('')).toEqual([]);
    expect(fs.readdirSync(t.deps.tmpDir)).toEqual([]);
  });

  it('gives the spec message for each missing field of a new version', async () => {
    const { owner } = await setup();
    const track = (await owner.upload({ path: wav }, {})).json<{
      project_id: string;
      branch_id: string;
    }>();
    const cases: [Record<string, string>, boolean, string][] = [
      [
        { project_id: track.project_id, branch_id: track.branch_id, commit_message: 'x' },
        false,
        'Please select a file to upload',
      ],
      [{ branch_id: track.branch_id, commit_message: 'x' }, true, 'Please select a project'],
      [{ project_id: track.project_id, commit_message: 'x' }, true, 'Please select a branch'],
      [
        { project_id: track.project_id, branch_id: track.branch_id, commit_message: '  ' },
        true,
        'Please enter a commit message',
      ],
    ];
    for (const [fields, withFile, message] of cases) {
      const response = await owner.upload(withFile ? { path: wav } : undefined, fields);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ error: message, code: 'invalid' });
    }
  });

  it('refuses the fields under their former camelCase names, saying the new one', async () => {
    await setup();
    const cookie = await newUser(t, 'old-client');
    const owner = api(t, cookie);
    const track = (await owner.upload({ path: wav }, {})).json<{
      project_id: string;
      branch_id: string;
    }>();
    const old = await owner.upload(
      { path: wav },
      { projectId: track.project_id, branch_id: track.branch_id, commit_message: 'x' },
    );
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual({
      error: "Upload field 'projectId' is now named 'project_id'",
      code: 'invalid',
    });
    const { body, contentType } = multipartUpload({ path: wav }, {});
    const oldFile = await t.app.inject({
      method: 'POST',
      url: '/api/versions/upload',
      payload: Buffer.from(
        body.toString('latin1').replace('name="audio_file"', 'name="audioFile"'),
        'latin1',
      ),
      headers: { cookie, origin: ORIGIN, 'content-type': contentType },
    });
    expect(oldFile.statusCode).toBe(400);
    expect(oldFile.json()).toMatchObject({
      error: "Upload field 'audioFile' is now named 'audio_file'",
    });
    const versions = (
      await owner.get(`/api/versions/project/${track.project_id}/branch/${track.branch_id}`)
    ).json<unknown[]>();
    expect(versions).toHaveLength(1);
  });

  it("refuses unknown and other people's ids with 404", async () => {
    const { owner, stranger } = await setup();
    const track = (await owner.upload({ path: wav }, {})).json<{
      project_id: string;
      branch_id: string;
      version_id: string;
    }>();
    const intoTheirs = await stranger.upload(
      { path: wav },
      { project_id: track.project_id, branch_id: track.branch_id, commit_message: 'mine now' },
    );
    expect(intoTheirs.statusCode).toBe(404);
    for (const url of [
      `/api/versions/${track.version_id}`,
      `/api/versions/${track.version_id}/stream`,
      `/api/versions/${track.version_id}/download`,
      `/api/versions/${track.version_id}/processing`,
      `/api/versions/${track.version_id}/qualities`,
      `/api/versions/project/${track.project_id}/branch/${track.branch_id}`,
      '/api/versions/nope',
    ]) {
      expect((await stranger.get(url)).statusCode, url).toBe(404);
    }
    expect((await stranger.delete(`/api/versions/${track.version_id}`)).statusCode).toBe(404);
    expect((await stranger.get('/api/versions/recent')).json()).toEqual([]);
    expect((await owner.get('/api/versions/recent')).json()).toMatchObject([
      { id: track.version_id, title: 'First Take - Version 1', project_name: 'First Take' },
    ]);
  });

  it('numbers two uploads finishing at once 2 and 3, and stores the same file once', async () => {
    const { owner } = await setup();
    const track = (await owner.upload({ path: wav }, {})).json<{
      project_id: string;
      branch_id: string;
    }>();
    const fields = {
      project_id: track.project_id,
      branch_id: track.branch_id,
      commit_message: 'take',
    };
    const [a, b] = await Promise.all([
      owner.upload({ path: wav }, fields),
      owner.upload({ path: wav }, fields),
    ]);
    expect([a?.statusCode, b?.statusCode]).toEqual([201, 201]);
    const list = (
      await owner.get(`/api/versions/project/${track.project_id}/branch/${track.branch_id}`)
    ).json<{ version_number: number }[]>();
    expect(list.map((v) => v.version_number)).toEqual([3, 2, 1]);
    expect(await t.deps.storage.list('originals/')).toHaveLength(1);
  });

  it('serves byte ranges: first bytes, middle, suffix, open-ended and unsatisfiable', async () => {
    const { owner } = await setup();
    const { version_id: versionId } = (await owner.upload({ path: wav }, {})).json<{
      version_id: string;
    }>();
    const size = fs.statSync(wav).size;
    const original = fs.readFileSync(wav);
    const url = `/api/versions/${versionId}/stream?quality=original`;
    const whole = await owner.get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await owner.get(url, { 'if-none-match': String(whole.headers.etag) })).statusCode).toBe(
      304,
    );
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=-500', size - 500, size - 1],
      [`bytes=${size - 10}-`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const part = await owner.get(url, { range });
      expect(part.statusCode, range).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(Buffer.compare(part.rawPayload, original.subarray(start, end + 1))).toBe(0);
    }
    const bad = await owner.get(url, { range: `bytes=${size}-` });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('downloads the original named project-name, a dash, 8 characters of the id', async () => {
    const { owner } = await setup();
    const { version_id: versionId } = (
      await owner.upload({ path: wav }, { project_name: 'Late Night Mix' })
    ).json<{ version_id: string }>();
    const download = await owner.get(`/api/versions/${versionId}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Late Night Mix-${versionId.slice(0, 8)}.wav"; filename*=UTF-8''Late%20Night%20Mix-${versionId.slice(0, 8)}.wav`,
    );
  });

  it("answers a peaks file stored under processing's names in the API's, with an ETag for 304", async () => {
    const { owner } = await setup();
    const { version_id: versionId } = (await owner.upload({ path: wav }, {})).json<{
      version_id: string;
    }>();
    await processed(owner, versionId);
    const row = await t.deps.database.db
      .selectFrom('versions')
      .select('waveform')
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    const { peaksKey } = JSON.parse(row.waveform ?? '{}') as { peaksKey: string };
    // A file as stored before the API spoke snake_case (processing still stores this shape).
    const stored = { version: 1, peaksPerSecond: 2, minMax: [-0.5, 0.5, -0.25, 0.25] };
    await t.deps.storage.put(peaksKey, Readable.from([Buffer.from(JSON.stringify(stored))]));
    const answer = await owner.get(`/api/versions/${versionId}/peaks`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json()).toEqual({
      version: 1,
      peaks_per_second: 2,
      min_max: [-0.5, 0.5, -0.25, 0.25],
    });
    const etag = String(answer.headers.etag);
    expect(etag).toMatch(/^"peaks-1-/);
    const again = await owner.get(`/api/versions/${versionId}/peaks`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    // Other stored bytes are another answer, under another ETag.
    await t.deps.storage.put(
      peaksKey,
      Readable.from([Buffer.from(JSON.stringify({ ...stored, peaksPerSecond: 4 }))]),
    );
    const changed = await owner.get(`/api/versions/${versionId}/peaks`, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ peaks_per_second: 4 });
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('deletes a project with its audio, keeping an original another version still uses', async () => {
    const { owner } = await setup();
    const first = (await owner.upload({ path: wav }, { project_name: 'One' })).json<{
      project_id: string;
      version_id: string;
    }>();
    const second = (await owner.upload({ path: wav }, { project_name: 'Two' })).json<{
      project_id: string;
    }>();
    await processed(owner, first.version_id);
    await losslessSettled(t, first.version_id);
    expect(await t.deps.storage.list(`renditions/${first.version_id}/`)).toHaveLength(3);
    expect((await owner.delete(`/api/projects/${first.project_id}`)).statusCode).toBe(204);
    await eventually(
      async () => (await t.deps.storage.list(`renditions/${first.version_id}/`)).length === 0,
    );
    expect(await t.deps.storage.list('originals/')).toHaveLength(1);
    expect((await owner.delete(`/api/projects/${second.project_id}`)).statusCode).toBe(204);
    await eventually(async () => (await t.deps.storage.list('originals/')).length === 0);
  });

  it('ends a truncated file as failed with a message people understand', async () => {
    const { owner } = await setup();
    const flac = fs.readFileSync(await makeAudio(dir, 'flac', 2));
    const response = await owner.upload(
      { content: flac.subarray(0, Math.floor(flac.length / 3)), name: 'cut.flac' },
      {},
    );
    expect(response.statusCode, response.body).toBe(201);
    const status = await processed(owner, response.json<{ version_id: string }>().version_id);
    expect(status).toMatchObject({
      status: 'failed',
      processing_complete: false,
      error:
        'This file could not be processed. It may be corrupt or truncated; try exporting it again and uploading the new file.',
    });
  });

  it('creates a version from a file URL with POST /versions/create', async () => {
    const { owner } = await setup();
    const project = (await owner.post('/api/projects', { name: 'Linked' })).json<{
      id: string;
      branches: { id: string }[];
    }>();
    const created = await owner.post('/api/versions/create', {
      project_id: project.id,
      branch_id: project.branches[0]?.id ?? '',
      file_url: 'https://files.example/mix.wav',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      version_number: 1,
      message: 'New version',
      tags: [],
      original_file_url: 'https://files.example/mix.wav',
    });
  });
});
