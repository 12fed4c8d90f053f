import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLoudness } from '../../media/audio';
import { MediaRunner } from '../../media/runner';
import { resolveMediaTools } from '../../media/tools';
import { LocalObjectStore } from '../../storage/local';
import { assertValidKey, type ObjectStore } from '../../storage/object-store';
import { UrlSigner } from '../../storage/url-signer';
import { blindAudioKey, renderBlindOptions, type BlindSource } from './blind-render';

const exec = promisify(execFile);
const options = { timeoutMs: 60_000 };

interface Probe {
  format: Record<string, unknown> & { filename?: string; duration?: string; tags?: object };
  streams: Record<string, unknown>[];
  chapters: unknown[];
}

/**
 * Real files through real ffmpeg and sox: three versions that differ in every way a browser could
 * see (length, level, format, sample rate, channels, tags) must come out told apart by nothing.
 */
describe('renderBlindOptions', () => {
  let dir: string;
  let store: LocalObjectStore;
  let media: MediaRunner;
  const keys = { wide: 'audio/wide-48k.wav', mono: 'audio/mono-44k.wav', mp3: 'audio/short.mp3' };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-blind-render-'));
    store = new LocalObjectStore(
      path.join(dir, 'objects'),
      new UrlSigner('blind-render-secret-0123456789'),
    );
    media = new MediaRunner(resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }));
    const file = (name: string) => path.join(dir, name);
    const sox = (format: string, name: string, effects: string) =>
      exec('sox', ['-n', ...format.split(' '), file(name), ...effects.split(' ')]);
    // 6 s of white noise, 24-bit 48 kHz stereo, peaking at -6 dBFS, with a comment that names it.
    // Bright: the MP3 encoder takes about 0.2 LU off it, so the gains' correction is needed.
    await sox('-r 48000 -b 24 -c 2 --comment Take-A', 'wide.wav', 'synth 6 whitenoise norm -6');
    // 7.5 s of a chord, 16-bit 44.1 kHz mono, peaking at -14 dBFS.
    await sox('-r 44100 -b 16 -c 1', 'mono.wav', 'synth 7.5 sine 220 sine 330 norm -14');
    // 5 s of brown noise peaking at -20 dBFS, as an MP3 (this sox writes none) with a title.
    await sox('-r 44100 -b 16 -c 2', 'short.wav', 'synth 5 brownnoise norm -20');
    await media.ffmpeg(
      [
        '-y',
        '-i',
        file('short.wav'),
        '-metadata',
        'title=Take C',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '192k',
        file('short.mp3'),
      ],
      options,
    );
    await store.putFile(keys.wide, file('wide.wav'));
    await store.putFile(keys.mono, file('mono.wav'));
    await store.putFile(keys.mp3, file('short.mp3'));
    fs.writeFileSync(file('not-audio.wav'), 'This is a text file with a .wav name.\n'.repeat(50));
    await store.putFile('audio/not-audio.wav', file('not-audio.wav'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The store as a remote one looks: no local paths, so every source is downloaded first. */
  const remote = (): ObjectStore => ({
    kind: 's3',
    put: (...args) => store.put(...args),
    putFile: (...args) => store.putFile(...args),
    get: (...args) => store.get(...args),
    head: (...args) => store.head(...args),
    delete: (...args) => store.delete(...args),
    list: (...args) => store.list(...args),
    signedUrl: (...args) => store.signedUrl(...args),
    check: () => store.check(),
  });

  const probe = async (file: string): Promise<Probe> => {
    const { stdout } = await media.ffprobe(
      [
        '-v',
        'error',
        '-print_format',
        'json',
        '-show_format',
        '-show_streams',
        '-show_chapters',
        file,
      ],
      options,
    );
    return JSON.parse(stdout.toString('utf8')) as Probe;
  };

  /** Integrated loudness to a thousandth of a LU (the meter's summary rounds to a tenth). */
  const preciseLufs = async (file: string): Promise<number> => {
    const { stderr } = await media.ffmpeg(
      [
        '-nostats',
        '-i',
        file,
        '-af',
        'ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I',
        '-f',
        'null',
        '-',
      ],
      options,
    );
    return Number([...stderr.matchAll(/lavfi\.r128\.I=(-?[\d.]+)/g)].at(-1)?.[1]);
  };

  const tempDirs = () =>
    fs
      .readdirSync(os.tmpdir())
      .filter((name) => name.startsWith('takes-blind-') && !name.startsWith('takes-blind-render-'));

  it('makes loudness-matched renditions that differ in nothing but their sound', async () => {
    const stored = async (key: string) =>
      (await measureLoudness(media, store.localPath(key), options)).integratedLufs;
    const sources: BlindSource[] = [
      { key: keys.wide, integratedLufs: await stored(keys.wide) },
      { key: keys.mono, integratedLufs: await stored(keys.mono) },
      { key: keys.mp3, integratedLufs: null },
    ];
    const before = tempDirs();

    const result = await renderBlindOptions({ storage: remote(), media }, 'test-1', sources);

    expect(tempDirs()).toEqual(before);
    expect(result).toHaveLength(3);
    const files = result.map((r) => store.localPath(r.key));
    // Result order is input order: the quietest source (the MP3) is turned down least, by no more
    // than the encoder's correction; the others by several dB. No gain is above 0.
    const [wide, mono, mp3] = result.map((r) => r.gainDb);
    expect(result.map((r) => r.gainDb <= 0)).toEqual([true, true, true]);
    expect(mp3).toBeGreaterThan(-0.5);
    expect(wide).toBeLessThan(-5);
    expect(mono).toBeLessThan(-5);
    for (const rendition of result) {
      expect(rendition.key).toMatch(/^blind\/test-1\/[0-9a-f]{24}\.mp3$/);
      for (const word of ['audio', 'wide', 'mono', 'short', '48k', '44k'])
        expect(rendition.key).not.toContain(word);
      expect(rendition.duration).toBeCloseTo(7.5, 3);
    }
    expect(new Set(result.map((r) => r.key)).size).toBe(3);
    expect((await store.list('blind/test-1/')).map((o) => o.key).sort()).toEqual(
      result.map((r) => r.key).sort(),
    );

    // Equal sizes, the same size stored as reported.
    const sizes = files.map((file) => fs.statSync(file).size);
    expect(new Set(sizes).size).toBe(1);
    expect(result.map((r) => r.size)).toEqual(sizes);

    // Everything ffprobe sees is the same but the file's name: format, tags, streams, duration.
    const probes = await Promise.all(files.map(probe));
    const [first, ...others] = probes.map(
      ({ format: { filename: _name, ...format }, ...rest }) => ({ format, ...rest }),
    );
    expect(first?.format.tags).toBeUndefined();
    expect(first?.chapters).toEqual([]);
    expect(first?.streams).toHaveLength(1);
    expect(first?.streams[0]).toMatchObject({
      codec_name: 'mp3',
      sample_rate: '44100',
      channels: 2,
      bit_rate: '320000',
    });
    expect(Number(first?.format.duration)).toBeGreaterThan(7.49);
    for (const other of others) expect(other).toEqual(first);

    // Within 0.1 LU of each other, measured on the files as a listener receives them.
    const loudness = await Promise.all(files.map(preciseLufs));
    expect(loudness.every(Number.isFinite)).toBe(true);
    expect(Math.max(...loudness) - Math.min(...loudness)).toBeLessThanOrEqual(0.1);
  }, 120_000);

  it('fails on a source that is not audio and stores nothing', async () => {
    const before = tempDirs();
    const sources: BlindSource[] = [
      { key: keys.mp3, integratedLufs: null },
      { key: 'audio/not-audio.wav', integratedLufs: -14 },
    ];
    await expect(renderBlindOptions({ storage: store, media }, 'test-2', sources)).rejects.toThrow(
      /option 2 could not be read/,
    );
    expect(await store.list('blind/test-2/')).toEqual([]);
    expect(tempDirs()).toEqual(before);
  }, 60_000);

  it('does nothing once cancelled', async () => {
    const stop = new AbortController();
    stop.abort(new Error('shutting down'));
    const sources: BlindSource[] = [
      { key: keys.wide, integratedLufs: null },
      { key: keys.mp3, integratedLufs: null },
    ];
    await expect(
      renderBlindOptions({ storage: store, media }, 'test-3', sources, stop.signal),
    ).rejects.toThrow('shutting down');
    expect(await store.list('blind/test-3/')).toEqual([]);
  });
});

describe('blindAudioKey', () => {
  it('always makes a key the object store takes, and a new one each time', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const key = blindAudioKey('test-1');
      expect(() => assertValidKey(key)).not.toThrow();
      keys.add(key);
    }
    expect(keys.size).toBe(5000);
  });
});
