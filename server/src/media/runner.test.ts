import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaRunner, MediaTimeoutError, whitelistInputs } from './runner';
import { resolveMediaTools } from './tools';

describe('media tools', () => {
  let dir: string;
  let runner: MediaRunner;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-media-'));
    runner = new MediaRunner(resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('resolves binaries from the npm packages when nothing else is set', () => {
    const tools = resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }, '');
    expect(tools.source).toEqual({ ffmpeg: 'npm', ffprobe: 'npm' });
    expect(fs.existsSync(tools.ffmpeg)).toBe(true);
  });

  it('names the ffmpeg in use, and says how to get a faster one when it is the bundled one', async () => {
    const bundled = new MediaRunner(
      resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }, ''),
    );
    const said = await bundled.version();
    expect(said).toMatch(
      /^ffmpeg version .*; .*ffmpeg \(from the npm package\); the npm-shipped ffmpeg/,
    );
    expect(said).toContain('apt-get install ffmpeg');
    const bin = path.join(dir, 'named');
    fs.mkdirSync(bin, { recursive: true });
    fs.symlinkSync(bundled.tools.ffmpeg, path.join(bin, 'ffmpeg'));
    const onPath = new MediaRunner(
      resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }, bin),
    );
    const named = await onPath.version();
    expect(named).toContain(`${path.join(bin, 'ffmpeg')} (from the system PATH)`);
    expect(named).not.toContain('npm-shipped');
  });

  it('prefers FFMPEG_PATH and refuses a path that is not an executable', () => {
    const shipped = resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }, '');
    const chosen = resolveMediaTools({ ffmpegPath: shipped.ffmpeg, ffprobePath: undefined }, '');
    expect(chosen.source.ffmpeg).toBe('env');
    expect(() =>
      resolveMediaTools({ ffmpegPath: '/nonexistent/ffmpeg', ffprobePath: undefined }),
    ).toThrow('FFMPEG_PATH points to /nonexistent/ffmpeg');
  });

  it('finds a binary on the system PATH before the npm one', () => {
    const shipped = resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }, '');
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.symlinkSync(shipped.ffmpeg, path.join(bin, 'ffmpeg'));
    const tools = resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }, bin);
    expect(tools).toMatchObject({
      ffmpeg: path.join(bin, 'ffmpeg'),
      source: { ffmpeg: 'system', ffprobe: 'npm' },
    });
  });

  it('puts the file-only protocol whitelist before every input', () => {
    expect(whitelistInputs(['-i', 'a.wav', '-i', 'b.wav', 'out.mp3'])).toEqual([
      '-protocol_whitelist',
      'file',
      '-i',
      'a.wav',
      '-protocol_whitelist',
      'file',
      '-i',
      'b.wav',
      'out.mp3',
    ]);
    expect(() => whitelistInputs(['-protocol_whitelist', 'http', '-i', 'x'])).toThrow();
  });

  it('writes a file with ffmpeg and reads it back with ffprobe', async () => {
    const wav = path.join(dir, 'tone.wav');
    await runner.ffmpeg(
      ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ac', '2', '-y', wav],
      {
        timeoutMs: 30_000,
      },
    );
    const { stdout } = await runner.ffprobe(
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', wav],
      { timeoutMs: 30_000 },
    );
    const probe = JSON.parse(stdout.toString()) as {
      format: { duration: string; format_name: string };
      streams: { channels: number }[];
    };
    expect(probe.format.format_name).toBe('wav');
    expect(Number(probe.format.duration)).toBeCloseTo(1, 1);
    expect(probe.streams[0]?.channels).toBe(2);
  });

  it('refuses inputs over the network', async () => {
    await expect(
      runner.ffprobe(['-v', 'error', 'http://127.0.0.1:9/x.mp3'], { timeoutMs: 30_000 }),
    ).rejects.toThrow(/not on whitelist|Protocol not found/);
    await expect(
      runner.ffmpeg(['-i', 'http://127.0.0.1:9/x.mp3', '-f', 'null', '-'], { timeoutMs: 30_000 }),
    ).rejects.toThrow(/ffmpeg failed \(exit 1\): .*(not on whitelist|Protocol not found)/);
  });

  it('reports the tool error from stderr for a file that is not audio', async () => {
    const junk = path.join(dir, 'junk.mp3');
    fs.writeFileSync(junk, 'this is not audio at all');
    await expect(runner.ffprobe(['-v', 'error', junk], { timeoutMs: 30_000 })).rejects.toThrow(
      /ffprobe failed \(exit 1\): .*junk\.mp3: Invalid/,
    );
  });

  it('kills a process that runs past its wall-clock limit', async () => {
    const started = Date.now();
    const error: unknown = await runner
      .ffmpeg(['-re', '-f', 'lavfi', '-i', 'sine=duration=600', '-f', 'null', '-'], {
        timeoutMs: 400,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaTimeoutError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops when its abort signal fires', async () => {
    const controller = new AbortController();
    const running = runner.ffmpeg(
      ['-re', '-f', 'lavfi', '-i', 'sine=duration=600', '-f', 'null', '-'],
      {
        timeoutMs: 60_000,
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(), 200);
    await expect(running).rejects.toThrow('ffmpeg was cancelled');
  });

  it('reports its version', async () => {
    expect(await runner.version()).toMatch(/^ffmpeg version /);
  });
});
