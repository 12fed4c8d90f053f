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

/** A real audio file made locally with ffmpeg: a stereo tone with some noise. */
export async function makeAudio(
  dir: string,
  format: keyof typeof ENCODE,
  seconds = 2,
  name = `tone.${format}`,
): Promise<string> {
  const file = path.join(dir, name);
  await runner.ffmpeg(
    [
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
      '-ac',
      '2',
      ...(ENCODE[format] ?? []),
      file,
    ],
    { timeoutMs: 60_000 },
  );
  return file;
}
