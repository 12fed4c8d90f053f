import path from 'node:path';
import { MediaRunner } from '../src/media/runner';
import { resolveMediaTools } from '../src/media/tools';

const runner = new MediaRunner(
  resolveMediaTools({ ffmpegPath: undefined, ffprobePath: undefined }),
);

const ENCODE: Record<string, string[]> = {
  wav: ['-c:a', 'pcm_s24le'],
  flac: ['-c:a', 'flac'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k'],
  aac: ['-c:a', 'aac', '-b:a', '96k', '-f', 'adts'],
  m4a: ['-c:a', 'aac', '-b:a', '96k'],
};

/**
 * A 440 Hz sine of `seconds`, made by ffmpeg and written to `file` with the `output` arguments
 * (codec, channels, container). Every ffmpeg-made fixture starts here.
 */
export async function ffmpegTone(
  file: string,
  seconds: number,
  output: string[],
  sampleRate = 48_000,
): Promise<string> {
  await runner.ffmpeg(
    [
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=${sampleRate}:duration=${seconds}`,
      ...output,
      file,
    ],
    { timeoutMs: 60_000 },
  );
  return file;
}

/** A real audio file made locally with ffmpeg: a stereo tone. */
export function makeAudio(
  dir: string,
  format: keyof typeof ENCODE,
  seconds = 2,
  name = `tone.${format}`,
): Promise<string> {
  return ffmpegTone(path.join(dir, name), seconds, ['-ac', '2', ...(ENCODE[format] ?? [])]);
}
