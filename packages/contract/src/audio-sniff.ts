/**
 * What kind of audio a file is by its first bytes: the one decision the server's intake and the
 * CLI's `takes watch` share (names and extensions are ignored). Pure byte work on Uint8Array, so
 * it runs anywhere; reading files stays with each caller.
 */

/** The text of bytes [start, end) read one byte a character. */
function latin1(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** The big-endian 32-bit number at `at` (0 past the end). */
function uint32(bytes: Uint8Array, at: number): number {
  if (at + 4 > bytes.length) return 0;
  return new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
}

/** The kinds Takes takes, as messages name them. */
export const ACCEPTED_AUDIO_KINDS = 'WAV, AIFF, FLAC, MP3, AAC or M4A';

export type AudioFormat = 'wav' | 'aiff' | 'flac' | 'mp3' | 'aac' | 'm4a';

/** How far into the audio (after any ID3v2 tags) an MPEG frame run may start, as decoders look. */
export const MPEG_SCAN_BYTES = 64 * 1024;
/** Enough bytes to see a run of frames that starts at the very end of the scanned range. */
export const SNIFF_WINDOW_BYTES = MPEG_SCAN_BYTES + 8 * 1024;
/** Consecutive frame headers, each where the one before ends, that make padded bytes MP3. */
const FRAME_RUN = 3;
/** More leading ID3v2 tags than this is not a tagger's work. */
export const MAX_ID3_TAGS = 4;

/** Reads up to `length` bytes from `start` (fewer at the end of the file). */
export type ByteReader = (start: number, length: number) => Promise<Uint8Array>;

/**
 * The audio container a file's content announces, or undefined. Names and MIME types are ignored.
 * Leading ID3v2 tags (their size is in their header) are skipped for every container, however
 * large they are.
 */
export async function sniffAudioSource(read: ByteReader): Promise<AudioFormat | undefined> {
  let offset = 0;
  for (let i = 0; i < MAX_ID3_TAGS; i++) {
    const size = id3v2Size(await read(offset, 10));
    if (size === undefined) break;
    offset += size;
  }
  const head = await read(offset, SNIFF_WINDOW_BYTES);
  return sniffAfterTags(head, offset > 0, head.length < SNIFF_WINDOW_BYTES);
}

/** The same as sniffAudioSource for bytes already in memory (a tag past their end finds nothing). */
export function sniffAudio(bytes: Uint8Array): AudioFormat | undefined {
  let offset = 0;
  for (let i = 0; i < MAX_ID3_TAGS; i++) {
    const size = id3v2Size(bytes.subarray(offset, offset + 10));
    if (size === undefined) break;
    offset += size;
  }
  const head = bytes.subarray(offset, offset + SNIFF_WINDOW_BYTES);
  return sniffAfterTags(head, offset > 0, offset + SNIFF_WINDOW_BYTES > bytes.length);
}

/** The whole length of an ID3v2 tag that starts `head`, or undefined when none does. */
export function id3v2Size(head: Uint8Array): number | undefined {
  if (head.length < 10 || latin1(head, 0, 3) !== 'ID3') return undefined;
  const major = head[3] as number;
  const flags = head[5] as number;
  if (major < 2 || major > 4 || head[4] === 0xff) return undefined;
  let size = 0;
  for (let i = 6; i < 10; i++) {
    const byte = head[i] as number;
    // A synchsafe integer: seven bits a byte, the top bit always clear.
    if (byte & 0x80) return undefined;
    size = size * 128 + byte;
  }
  const footer = major === 4 && flags & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** `ended`: `head` reaches the end of the file. */
function sniffAfterTags(
  head: Uint8Array,
  tagged: boolean,
  ended: boolean,
): AudioFormat | undefined {
  if (head.length >= 12) {
    const riff = latin1(head, 0, 4);
    const kind = latin1(head, 8, 12);
    if (riff === 'RIFF' && kind === 'WAVE') return 'wav';
    if (riff === 'FORM' && (kind === 'AIFF' || kind === 'AIFC')) return 'aiff';
    if (latin1(head, 4, 8) === 'ftyp') return 'm4a';
  }
  if (head.length >= 4 && latin1(head, 0, 4) === 'fLaC') return 'flac';
  if (head.length >= 2 && head[0] === 0xff) {
    const second = head[1] as number;
    // ADTS (AAC) has layer bits 00; MPEG audio frames (MP3) have a non-zero layer.
    if ((second & 0xf6) === 0xf0) return 'aac';
    // Free format (no bit rate in the header) cannot be chained; ffprobe decides.
    const freeFormat = (second & 0xe0) === 0xe0 && (head[2] ?? 0) >> 4 === 0;
    if ((second & 0x06) !== 0 && (freeFormat || frameRun(head, 0, ended))) return 'mp3';
  }
  // Padding or junk before the first frame: MP3 only if real frames follow one another.
  if (mpegRunAt(head, ended) !== undefined) return 'mp3';
  // An ID3v2 tag has always meant MP3 here; ffprobe still has to agree.
  if (tagged) return 'mp3';
  return undefined;
}

interface FrameHeader {
  /** Version, layer and sample rate: the same in every frame of a stream. */
  stream: number;
  length: number;
  sampleRate: number;
  samples: number;
  /** Where a Xing/Info header would start, from the frame's start. */
  sideInfoEnd: number;
}

const BITRATES_KBPS = {
  v1l1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

/** The MPEG audio frame header at `at`, with the frame's length, or undefined. */
export function mpegFrameAt(bytes: Uint8Array, at: number): FrameHeader | undefined {
  if (at + 4 > bytes.length) return undefined;
  const b1 = bytes[at + 1] as number;
  const b2 = bytes[at + 2] as number;
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3; // 3 = Layer I, 2 = Layer II, 1 = Layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  const rates = SAMPLE_RATES[version];
  // Reserved version or layer, a free or bad bit rate, a reserved sample rate.
  if (!rates || layer === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
    return undefined;
  const v1 = version === 3;
  const table =
    layer === 3
      ? v1
        ? BITRATES_KBPS.v1l1
        : BITRATES_KBPS.v2l1
      : v1
        ? layer === 2
          ? BITRATES_KBPS.v1l2
          : BITRATES_KBPS.v1l3
        : BITRATES_KBPS.v2l23;
  const bitrate = (table[bitrateIndex] as number) * 1000;
  const sampleRate = rates[rateIndex] as number;
  const padding = (b2 >> 1) & 1;
  const length =
    layer === 3
      ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4
      : Math.floor(((layer === 1 && !v1 ? 72 : 144) * bitrate) / sampleRate) + padding;
  const mono = (bytes[at + 3] as number) >> 6 === 3;
  const crc = (b1 & 1) === 0 ? 2 : 0;
  const sideInfo = v1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  return {
    stream: (b1 & 0x1e) | (rateIndex << 8),
    length,
    sampleRate,
    samples: layer === 3 ? 384 : layer === 2 || v1 ? 1152 : 576,
    sideInfoEnd: 4 + crc + sideInfo,
  };
}

/**
 * Where the first run of FRAME_RUN consecutive frames starts within the first MPEG_SCAN_BYTES,
 * or undefined. A lone byte pattern that looks like a frame header is not enough.
 */
export function mpegRunAt(bytes: Uint8Array, ended = false): number | undefined {
  const last = Math.min(bytes.length, MPEG_SCAN_BYTES);
  for (let start = 0; start < last; start++) {
    if (bytes[start] === 0xff && frameRun(bytes, start, ended)) return start;
  }
  return undefined;
}

/**
 * Whether FRAME_RUN frames follow one another from `start` (or fewer that end exactly where the
 * file does, for a file that short).
 */
function frameRun(bytes: Uint8Array, start: number, ended: boolean): boolean {
  const first = mpegFrameAt(bytes, start);
  if (!first) return false;
  let at = start + first.length;
  for (let run = 1; run < FRAME_RUN; run++) {
    if (ended && at === bytes.length) return true;
    const next = mpegFrameAt(bytes, at);
    if (!next || next.stream !== first.stream) return false;
    at += next.length;
  }
  return true;
}

export const AUDIO_MIME: Record<AudioFormat, string> = {
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
};

/**
 * The length an MP3's own Xing/Info or VBRI header gives (frames × samples per frame), or
 * undefined when its first frame has none. ffprobe misses these headers when padding comes
 * before the first frame and then only estimates the length.
 */
export function mpegHeaderSeconds(bytes: Uint8Array): number | undefined {
  let offset = 0;
  for (let i = 0; i < MAX_ID3_TAGS; i++) {
    const size = id3v2Size(bytes.subarray(offset, offset + 10));
    if (size === undefined) break;
    offset += size;
  }
  const head = bytes.subarray(offset, offset + SNIFF_WINDOW_BYTES);
  const start = mpegFrameAt(head, 0) ? 0 : mpegRunAt(head);
  if (start === undefined) return undefined;
  const frame = mpegFrameAt(head, start);
  if (!frame) return undefined;
  let frames: number | undefined;
  const xing = start + frame.sideInfoEnd;
  const tag = latin1(head, xing, xing + 4);
  if ((tag === 'Xing' || tag === 'Info') && xing + 12 <= head.length) {
    if (uint32(head, xing + 4) & 1) frames = uint32(head, xing + 8);
  } else if (latin1(head, start + 36, start + 40) === 'VBRI') {
    if (start + 54 <= head.length) frames = uint32(head, start + 50);
  }
  return frames ? (frames * frame.samples) / frame.sampleRate : undefined;
}
