import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegTone } from './audio-fixtures';

/**
 * Audio files as musicians' tools write them, made with the real encoders (sox, lame, flac,
 * ffmpeg: Debian packages sox, lame, flac, ffmpeg). Each tool is looked up on PATH.
 */
const run = promisify(execFile);

async function tool(name: string, args: string[]): Promise<void> {
  try {
    await run(name, args, { timeout: 60_000 });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT')
      throw new Error(`'${name}' is not installed (apt-get install ${name})`, { cause: error });
    throw error;
  }
}

/** A stereo 44.1 kHz tone made by sox, `bits` per sample, as AIFF. */
export async function soxAiff(dir: string, name: string, bits: 8 | 16 | 24, seconds = 2) {
  const file = path.join(dir, name);
  await tool('sox', [
    '-n',
    '-r',
    '44100',
    '-c',
    '2',
    '-b',
    String(bits),
    file,
    'synth',
    String(seconds),
    'sine',
    '440',
  ]);
  return file;
}

/** A 16-bit WAV made by sox (the input for lame and flac). */
async function soxWav(dir: string, name: string, effects: string[]) {
  const file = path.join(dir, name);
  await tool('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', file, ...effects]);
  return file;
}

/** AIFF-C with A-law samples (ffmpeg writes A-law AIFF as AIFC). */
export function ffmpegAifcAlaw(dir: string, name: string, seconds = 2) {
  return ffmpegTone(path.join(dir, name), seconds, ['-c:a', 'pcm_alaw', '-f', 'aiff'], 44_100);
}

/** AIFF with an `ID3 ` chunk carrying a title. */
export function ffmpegAiffWithId3(dir: string, name: string, seconds = 2) {
  const output = ['-write_id3v2', '1', '-metadata', 'title=Bounce', '-f', 'aiff'];
  return ffmpegTone(path.join(dir, name), seconds, output, 44_100);
}

/** A 16-bit stereo 440 Hz tone as WAV, made by sox (the input for lame and flac). */
function soxTone(dir: string, name: string, seconds: number) {
  return soxWav(dir, `${name}.wav`, ['synth', String(seconds), 'sine', '440']);
}

/** FLAC made by the reference encoder. */
export async function flacFile(dir: string, name: string, seconds = 2) {
  const wav = await soxTone(dir, name, seconds);
  const file = path.join(dir, name);
  await tool('flac', ['--silent', '--force', '-o', file, wav]);
  return file;
}

/** A constant bit rate MP3 made by lame (with its Info header). */
export async function lameCbr(dir: string, name: string, seconds = 3) {
  const wav = await soxTone(dir, name, seconds);
  const file = path.join(dir, name);
  await tool('lame', ['--quiet', '-b', '128', wav, file]);
  return file;
}

/**
 * A VBR MP3 without a Xing header (`lame -t`) whose first frames are silence, so their bit rate
 * is far below the average: a length estimated from it is far too long (about 6.4 s for 4 s).
 */
export async function lameVbrWithoutXing(dir: string, name: string) {
  const wav = await soxWav(dir, `${name}.wav`, [
    'synth',
    '2',
    'sine',
    '440',
    'vol',
    '0',
    ':',
    'synth',
    '2',
    'whitenoise',
    'vol',
    '0.5',
  ]);
  const file = path.join(dir, name);
  await tool('lame', ['--quiet', '-V', '5', '-t', wav, file]);
  return file;
}

/** The bytes of an ID3v2.3 tag with a title frame and `padding` zero bytes after it. */
export function id3v2Tag(title: string, padding = 1024): Buffer {
  const text = Buffer.concat([Buffer.from([0]), Buffer.from(title, 'latin1')]);
  const frameHeader = Buffer.alloc(10);
  frameHeader.write('TIT2', 0, 'latin1');
  frameHeader.writeUInt32BE(text.length, 4);
  const body = Buffer.concat([frameHeader, text, Buffer.alloc(padding)]);
  const header = Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1');
  let size = body.length;
  for (let i = 9; i >= 6; i--) {
    header[i] = size & 0x7f;
    size >>= 7;
  }
  return Buffer.concat([header, body]);
}

/** Bytes that are no audio format, the same on every run, with 0xFF bytes among them. */
export function junk(length: number, seed = 7): Buffer {
  const out = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out[i] = i % 97 === 0 ? 0xff : (state >> 16) & 0xff;
  }
  return out;
}

/** How many seconds of audio ffmpeg decodes from a file, as the test's own measure. */
export async function decodedSeconds(file: string): Promise<number> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', '8000', '-f', 's16le', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  return stdout.length / 2 / 8000;
}

/** Writes `content` as a new file in `dir`. */
export function writeFixture(dir: string, name: string, content: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}
