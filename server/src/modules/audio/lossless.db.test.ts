import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sox } from '../../../bench/alignment-set';
import { api, losslessSettled, uploadProcessed } from '../../../test/api';
import { buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { parseJson, type Renditions } from './audio-view';

// 'Lossless': every lossless original gets a FLAC rendition whose decoded samples are the
// original's, at its own rate, depth and channels; lossy and float originals get none (their
// 'lossless' streams the original); versions made before it existed get it from the backfill.

/** Music-like material: plucked chords on each channel over a quiet pink-noise room. */
function music(file: string, rate: number, bits: number, seconds: number): string {
  const dir = path.dirname(file);
  const strings = path.join(dir, `strings-${rate}-${bits}.wav`);
  const room = path.join(dir, `room-${rate}-${bits}.wav`);
  const synth = ['-n', '-r', String(rate), '-b', String(bits), '-c', '2'];
  sox(
    ...synth,
    strings,
    'synth',
    String(seconds),
    'pluck',
    'C3',
    'pluck',
    'G3',
    ':',
    'synth',
    String(seconds),
    'pluck',
    'E4',
    'pluck',
    'B3',
    'vol',
    '0.8',
  );
  sox(...synth, room, 'synth', String(seconds), 'pinknoise', 'vol', '0.05');
  sox('-m', strings, room, '-b', String(bits), file);
  return file;
}

/** ffmpeg's MD5 of the decoded samples (as the decoder gives them: format, rate, channels). */
function decodedMd5(file: string): string {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a:0', '-f', 'md5', '-'])
    .toString()
    .trim();
}

function probe(file: string): { rate: number; channels: number; bits: number; codec: string } {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,sample_rate,channels,bits_per_raw_sample',
    '-of',
    'json',
    file,
  ]).toString();
  const s = (JSON.parse(out) as { streams: Record<string, string | number>[] }).streams[0] ?? {};
  return {
    codec: String(s.codec_name),
    rate: Number(s.sample_rate),
    channels: Number(s.channels),
    bits: Number(s.bits_per_raw_sample),
  };
}

describe('lossless renditions', () => {
  let dir: string;
  let t: TestApp;
  let owner: BuiltUser;
  let project: { id: string; branch: string };

  /** Uploads a file and waits for its processing and its FLAC (made after 'completed'). */
  const upload = async (file: string) => {
    const id = await uploadProcessed(t, owner.cookie, file, {
      project_id: project.id,
      branch_id: project.branch,
    });
    await losslessSettled(t, id);
    return id;
  };
  const fetchQuality = async (versionId: string, quality: string, range?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/versions/${versionId}/stream?quality=${quality}`,
      headers: { cookie: owner.cookie, ...(range ? { range } : {}) },
    });
  const renditionsOf = async (versionId: string) =>
    parseJson<Renditions>(
      (
        await t.deps.database.db
          .selectFrom('versions')
          .select('renditions')
          .where('id', '=', versionId)
          .executeTakeFirstOrThrow()
      ).renditions,
      {},
    );

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-lossless-'));
    t = await createTestApp();
    owner = await buildUser(t.deps.database.db, { name: 'Olivia Owner' });
    const built = await buildProject(t.deps.database.db, owner.id, { name: 'Night Drive' });
    project = { id: built.project.id, branch: built.branch.id };
    await t.deps.jobs.startWorking();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // The audio work is the same whatever the database: SQLite runs every rate and depth, and
  // PostgreSQL (the rows are what differ there) the outer corners, 44.1 kHz 16 bit and 96 kHz
  // 24 bit, so the suite's second run does not redo 18 uploads to prove ffmpeg twice.
  const everyFormat = process.env.TEST_DB !== 'postgres';
  const matrix = everyFormat
    ? [44_100, 48_000, 96_000].flatMap((rate) => [16, 24].map((bits) => ({ rate, bits })))
    : [
        { rate: 44_100, bits: 16 },
        { rate: 96_000, bits: 24 },
      ];
  for (const format of ['wav', 'aiff', 'flac'] as const) {
    it(`${format.toUpperCase()} at ${everyFormat ? '44.1, 48 and 96 kHz, 16 and 24 bit' : '44.1 kHz 16 bit and 96 kHz 24 bit'}: the FLAC decodes to the original's samples`, async () => {
      for (const { rate, bits } of matrix) {
        const original = music(path.join(dir, `take-${rate}-${bits}.${format}`), rate, bits, 2);
        const id = await upload(original);
        const qualities = (await api(t, owner.cookie).get(`/api/versions/${id}/qualities`)).json<{
          available: string[];
          qualities: Record<string, { format: string; file_size: number }>;
        }>();
        expect(qualities.available).toEqual(['original', 'lossless', 'high', 'standard']);
        expect(qualities.qualities.lossless?.format).toBe('flac');
        const response = await fetchQuality(id, 'lossless');
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('audio/flac');
        const flac = path.join(dir, `got-${rate}-${bits}-${format}.flac`);
        fs.writeFileSync(flac, response.rawPayload);
        expect(probe(flac), `${format} ${rate} ${bits}`).toEqual({
          codec: 'flac',
          rate,
          channels: 2,
          bits,
        });
        expect(decodedMd5(flac), `${format} ${rate} Hz ${bits} bit`).toBe(decodedMd5(original));
      }
    }, 180_000);
  }

  it('ALAC in M4A gets its FLAC too; the FLAC of a 24-bit WAV of music is at most 0.7 of its bytes', async () => {
    const wav = music(path.join(dir, 'album-take.wav'), 44_100, 24, 10);
    const alac = path.join(dir, 'album-take.m4a');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-c:a', 'alac', alac]);
    const alacId = await upload(alac);
    const alacFlac = await fetchQuality(alacId, 'lossless');
    expect(alacFlac.headers['content-type']).toBe('audio/flac');
    const got = path.join(dir, 'alac-got.flac');
    fs.writeFileSync(got, alacFlac.rawPayload);
    expect(decodedMd5(got)).toBe(decodedMd5(alac));

    const id = await upload(wav);
    const lossless = (await renditionsOf(id)).lossless;
    const ratio = (lossless?.size ?? Infinity) / fs.statSync(wav).size;
    expect(ratio).toBeLessThanOrEqual(0.7);
    // Range requests read the same bytes as the whole file (a seek in the player).
    const whole = (await fetchQuality(id, 'lossless')).rawPayload;
    const part = await fetchQuality(id, 'lossless', 'bytes=1000-4999');
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-4999/${whole.length}`);
    expect(part.rawPayload.equals(whole.subarray(1000, 5000))).toBe(true);
  }, 120_000);

  it('a lossy or floating-point original has no FLAC: Lossless streams the original', async () => {
    const mp3 = path.join(dir, 'demo.mp3');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=330:d=2',
      '-c:a',
      'libmp3lame',
      mp3,
    ]);
    const float = path.join(dir, 'float.wav');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=330:d=2',
      '-c:a',
      'pcm_f32le',
      float,
    ]);
    for (const [file, type] of [
      [mp3, 'audio/mpeg'],
      [float, 'audio/wav'],
    ] as const) {
      const id = await upload(file);
      expect((await renditionsOf(id)).lossless).toBeNull();
      const qualities = (await api(t, owner.cookie).get(`/api/versions/${id}/qualities`)).json<{
        available: string[];
      }>();
      expect(qualities.available).toEqual(['original', 'high', 'standard']);
      const response = await fetchQuality(id, 'lossless');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.rawPayload.equals(fs.readFileSync(file))).toBe(true);
    }
  }, 60_000);

  it('the backfill gives earlier versions their FLAC, once, and marks the ones that can have none', async () => {
    const wav = music(path.join(dir, 'old-take.wav'), 48_000, 24, 2);
    // A float WAV is visited (its format could hold integer PCM) and marked as having none.
    const float = path.join(dir, 'old-float.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-c:a', 'pcm_f32le', float]);
    const ids = [await upload(wav), await upload(float)];
    // As processed before the FLAC rendition existed: no 'lossless' entry, no object.
    for (const id of ids) {
      const renditions = await renditionsOf(id);
      if (renditions.lossless) await t.deps.storage.delete(renditions.lossless.key);
      delete renditions.lossless;
      await t.deps.database.db
        .updateTable('versions')
        .set({ renditions: JSON.stringify(renditions) })
        .where('id', '=', id)
        .execute();
    }
    expect((await fetchQuality(ids[0] ?? '', 'lossless')).headers['content-type']).toBe(
      'audio/wav',
    );
    const context = {
      jobId: 'backfill',
      attempt: 1,
      signal: new AbortController().signal,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    };
    await t.services.audio.backfillLossless(context);
    const [wavRenditions, floatRenditions] = [
      await renditionsOf(ids[0] ?? ''),
      await renditionsOf(ids[1] ?? ''),
    ];
    expect(wavRenditions.lossless?.key).toMatch(/^renditions\/.+\/lossless\.flac$/);
    expect(floatRenditions.lossless).toBeNull();
    const response = await fetchQuality(ids[0] ?? '', 'lossless');
    expect(response.headers['content-type']).toBe('audio/flac');
    const got = path.join(dir, 'backfilled.flac');
    fs.writeFileSync(got, response.rawPayload);
    expect(decodedMd5(got)).toBe(decodedMd5(wav));
    // Nothing is left to do: a second run changes nothing.
    const before = await t.deps.database.db
      .selectFrom('versions')
      .select(['id', 'updated_at'])
      .execute();
    await t.services.audio.backfillLossless(context);
    expect(
      await t.deps.database.db.selectFrom('versions').select(['id', 'updated_at']).execute(),
    ).toEqual(before);
  }, 60_000);
});
