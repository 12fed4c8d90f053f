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
});
