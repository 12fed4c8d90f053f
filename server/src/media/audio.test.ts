import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyse, encodeMp3, measureLoudness, PeakFolder } from './audio';
import { MediaRunner } from './runner';
import { resolveMediaTools } from './tools';

/**
 * Processing makes the waveform peaks from the 128k encode's decode and measures loudness in a
 * process of its own (issue 18 §3). These prove the outputs are the ones the previous way made:
 * one analysis process (peaks + meter), and each MP3 encoded on its own.
 */
describe('audio outputs made in shared decodes', () => {
  let dir: string;
  let runner: MediaRunner;
  let wav: string;
  const options = { timeoutMs: 60_000 };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-audio-'));
    runner = new MediaRunner(resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }));
    wav = path.join(dir, 'fixture.wav');
    // 12 s of 24-bit 48 kHz stereo: pink noise under a tone that swells, so loudness range,
    // true peak and the peaks all have something to measure.
    await runner.ffmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=d=12:c=pink:a=0.2:r=48000:s=7',
        '-f',
        'lavfi',
        '-i',
        'sine=f=330:d=12:r=48000',
        '-filter_complex',
        "[1:a]volume='0.1+0.8*t/12':eval=frame[tone];[0:a][tone]amix=inputs=2:normalize=0,aformat=channel_layouts=stereo",
        '-c:a',
        'pcm_s24le',
        wav,
      ],
      options,
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('measures the same loudness alone as the combined analysis did (within 0.1 LU)', async () => {
    const previous = (await analyse(runner, wav, 48_000, options)).loudness;
    const now = await measureLoudness(runner, wav, options);
    expect(previous.integratedLufs).not.toBeNull();
    expect(previous.loudnessRange).not.toBeNull();
    expect(previous.truePeakDbfs).not.toBeNull();
    expect(Math.abs((now.integratedLufs ?? NaN) - (previous.integratedLufs ?? NaN))).toBeLessThan(
      0.1,
    );
    expect(Math.abs((now.loudnessRange ?? NaN) - (previous.loudnessRange ?? NaN))).toBeLessThan(
      0.1,
    );
    expect(Math.abs((now.truePeakDbfs ?? NaN) - (previous.truePeakDbfs ?? NaN))).toBeLessThan(0.1);
  });

  it('makes the same peaks from an encode’s decode, and the same MP3 bytes as an encode alone', async () => {
    const previous = (await analyse(runner, wav, 48_000, options)).peaks;
    for (const kbps of [128, 320]) {
      const alone = path.join(dir, `alone-${kbps}.mp3`);
      const shared = path.join(dir, `shared-${kbps}.mp3`);
      const peaks = new PeakFolder(48_000);
      await encodeMp3(runner, wav, alone, kbps, { ...options, maxBytes: 10 * 2 ** 20 });
      await encodeMp3(runner, wav, shared, kbps, { ...options, maxBytes: 10 * 2 ** 20, peaks });
      expect(fs.readFileSync(shared).equals(fs.readFileSync(alone)), `${kbps}k MP3`).toBe(true);
      const made = peaks.result();
      expect(made.minMax).toHaveLength(12 * 20 * 2);
      expect(made.decodedSeconds).toBeCloseTo(12, 3);
      expect(made).toEqual(previous);
    }
  });

  it('makes the same peaks and loudness through a scratch file as through a pipe, and removes it', async () => {
    const piped = await analyse(runner, wav, 48_000, options);
    const scratch = path.join(dir, 'peaks.pcm');
    const filed = await analyse(runner, wav, 48_000, { ...options, scratch });
    expect(filed.peaks.minMax).toHaveLength(12 * 20 * 2);
    expect(filed).toEqual(piped);
    expect(fs.existsSync(scratch)).toBe(false);
  });

  it('folds a file of samples across reads, an odd byte count included', async () => {
    // 2.5 buffers' worth of a ramp, then one stray byte: every sample counted exactly once.
    const count = (1 << 20) * 1.25;
    const samples = new Int16Array(count);
    for (let i = 0; i < count; i++) samples[i] = (i % 65_536) - 32_768;
    const file = path.join(dir, 'ramp.pcm');
    fs.writeFileSync(file, Buffer.concat([Buffer.from(samples.buffer), Buffer.from([7])]));
    const fromFile = new PeakFolder(1000);
    await fromFile.foldFile(file);
    const fromPipe = new PeakFolder(1000);
    await new Promise<void>((resolve, reject) => {
      fromPipe.sink.on('finish', resolve).on('error', reject);
      // Odd-sized chunks, as a pipe may deliver them.
      const bytes = fs.readFileSync(file);
      for (let at = 0; at < bytes.length; at += 77_777)
        fromPipe.sink.write(bytes.subarray(at, at + 77_777));
      fromPipe.sink.end();
    });
    const made = fromFile.result();
    expect(made.decodedSeconds).toBeCloseTo(count / 1000, 6);
    expect(made).toEqual(fromPipe.result());
  });

  it('folds each bucket to its own minimum and maximum, whatever the chunks', async () => {
    // Noise with a few extremes, in chunks that split buckets anywhere (and single samples).
    const samples = new Int16Array(48_000 * 3 + 1234);
    let seed = 7;
    for (let i = 0; i < samples.length; i++) {
      // xorshift32: every 16-bit value equally likely.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      samples[i] = seed & 0xffff;
    }
    samples[5] = -32_768;
    samples[4_000] = 32_767;
    const round = (v: number) => Math.round(v * 10_000) / 10_000;
    for (const sampleRate of [48_000, 44_100, 20]) {
      const perBucket = Math.max(Math.round(sampleRate / 20), 1);
      const expected: number[] = [];
      for (let from = 0; from < samples.length; from += perBucket) {
        const bucket = samples.subarray(from, from + perBucket);
        expected.push(round(Math.min(...bucket) / 32_768), round(Math.max(...bucket) / 32_768));
      }
      const folder = new PeakFolder(sampleRate);
      await new Promise<void>((resolve, reject) => {
        folder.sink.on('finish', resolve).on('error', reject);
        const bytes = Buffer.from(samples.buffer);
        for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 3) % 9_001)
          folder.sink.write(bytes.subarray(at, at + size));
        folder.sink.end();
      });
      expect(folder.result().minMax, `${sampleRate} Hz`).toEqual(expected);
    }
  });
});
