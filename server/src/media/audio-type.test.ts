import { describe, expect, it } from 'vitest';
import {
  id3v2Size,
  MPEG_SCAN_BYTES,
  mpegHeaderSeconds,
  sniffAudio,
  sniffAudioSource,
} from './audio-type';

/** MPEG-1 Layer III, 128 kbps, 44.1 kHz, stereo: 417 bytes a frame (no padding bit). */
const HEADER = [0xff, 0xfb, 0x90, 0x64];
const FRAME_BYTES = 417;

function frames(count: number, first?: (frame: Buffer) => void): Buffer {
  const all: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const frame = Buffer.alloc(FRAME_BYTES);
    Buffer.from(HEADER).copy(frame);
    if (i === 0) first?.(frame);
    all.push(frame);
  }
  return Buffer.concat(all);
}

function id3(bodyBytes: number, options: { major?: number; footer?: boolean } = {}): Buffer {
  const major = options.major ?? 3;
  const header = Buffer.from([0x49, 0x44, 0x33, major, 0, options.footer ? 0x10 : 0, 0, 0, 0, 0]);
  let size = bodyBytes;
  for (let i = 9; i >= 6; i--) {
    header[i] = size & 0x7f;
    size >>= 7;
  }
  return Buffer.concat([header, Buffer.alloc(bodyBytes + (options.footer ? 10 : 0))]);
}

function chunk(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

const aiff = (kind: 'AIFF' | 'AIFC') =>
  chunk('FORM', Buffer.concat([Buffer.from(kind, 'latin1'), chunk('COMM', Buffer.alloc(18))]));
const wav = Buffer.concat([
  Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'),
  Buffer.alloc(40),
]);
const flac = Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.alloc(60)]);
const m4a = Buffer.concat([Buffer.from('\x00\x00\x00\x20ftypM4A ', 'latin1'), Buffer.alloc(40)]);
const adts = Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80]), Buffer.alloc(60)]);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', Buffer.alloc(13)),
]);

/** Deterministic bytes that are no format, with 0xFF among them. */
function junk(length: number): Buffer {
  const out = Buffer.alloc(length);
  let state = 11;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out[i] = i % 53 === 0 ? 0xff : (state >> 16) & 0xff;
  }
  return out;
}

const reader = (bytes: Buffer) => (start: number, length: number) =>
  Promise.resolve(bytes.subarray(start, start + length));

describe('sniffAudio', () => {
  it('knows each container by its first bytes', () => {
    expect(sniffAudio(wav)).toBe('wav');
    expect(sniffAudio(aiff('AIFF'))).toBe('aiff');
    expect(sniffAudio(aiff('AIFC'))).toBe('aiff');
    expect(sniffAudio(flac)).toBe('flac');
    expect(sniffAudio(m4a)).toBe('m4a');
    expect(sniffAudio(adts)).toBe('aac');
    expect(sniffAudio(frames(5))).toBe('mp3');
  });

  it('looks past leading ID3v2 tags for every container', () => {
    expect(sniffAudio(Buffer.concat([id3(1000), flac]))).toBe('flac');
    expect(sniffAudio(Buffer.concat([id3(20), wav]))).toBe('wav');
    expect(sniffAudio(Buffer.concat([id3(20, { major: 4, footer: true }), aiff('AIFF')]))).toBe(
      'aiff',
    );
    expect(sniffAudio(Buffer.concat([id3(30), id3(40), m4a]))).toBe('m4a');
    expect(sniffAudio(Buffer.concat([id3(300), frames(3)]))).toBe('mp3');
    expect(id3v2Size(id3(1000))).toBe(1010);
    expect(id3v2Size(id3(1000, { major: 4, footer: true }))).toBe(1020);
  });

  it('reads past a tag larger than the sniffing window (cover art)', async () => {
    const file = Buffer.concat([id3(200_000), flac]);
    expect(await sniffAudioSource(reader(file))).toBe('flac');
  });

  it('takes MP3 after zero padding or junk when consecutive frames follow', () => {
    expect(sniffAudio(Buffer.concat([Buffer.alloc(3000), frames(3)]))).toBe('mp3');
    expect(sniffAudio(Buffer.concat([junk(5000), frames(4)]))).toBe('mp3');
    expect(sniffAudio(Buffer.concat([Buffer.alloc(MPEG_SCAN_BYTES - 10), frames(3)]))).toBe('mp3');
  });

  it('refuses what is not audio, however it starts', () => {
    expect(sniffAudio(Buffer.from('Hello, this is just some text.\n'.repeat(50)))).toBeUndefined();
    expect(sniffAudio(junk(20_000))).toBeUndefined();
    expect(sniffAudio(png)).toBeUndefined();
    expect(sniffAudio(Buffer.alloc(10_000))).toBeUndefined();
    // A lone frame sync: after padding, and at the very start.
    const lone = Buffer.concat([Buffer.from(HEADER), junk(5000)]);
    expect(sniffAudio(Buffer.concat([Buffer.alloc(100), lone]))).toBeUndefined();
    expect(sniffAudio(lone)).toBeUndefined();
    // Two frames that chain, then nothing that does.
    expect(sniffAudio(Buffer.concat([Buffer.alloc(100), frames(2), junk(3000)]))).toBeUndefined();
    // Frames that only start past the first 64 KB.
    expect(
      sniffAudio(Buffer.concat([Buffer.alloc(MPEG_SCAN_BYTES + 1), frames(3)])),
    ).toBeUndefined();
  });
});

describe('mpegHeaderSeconds', () => {
  it('reads the frame count of an Info header, also after padding', () => {
    const info = frames(4, (frame) => {
      frame.write('Info', 36, 'latin1');
      frame.writeUInt32BE(1, 40);
      frame.writeUInt32BE(100, 44);
    });
    expect(mpegHeaderSeconds(info)).toBeCloseTo((100 * 1152) / 44100, 6);
    expect(mpegHeaderSeconds(Buffer.concat([Buffer.alloc(2000), info]))).toBeCloseTo(
      (100 * 1152) / 44100,
      6,
    );
    expect(mpegHeaderSeconds(frames(4))).toBeUndefined();
  });
});
