// @ts-check
import fsp from 'node:fs/promises';

// What kind of audio a file is by its first bytes, as the server decides it
// (server/src/media/audio-type.ts, mirrored here): `takes watch` refuses what the server would
// before making a commit for it. Names and extensions are ignored. The server still probes what
// it receives; this only keeps files it would refuse at once from being sent.

/** @typedef {'wav' | 'aiff' | 'flac' | 'mp3' | 'aac' | 'm4a'} AudioFormat */

/** @type {Record<AudioFormat, string>} */
export const AUDIO_MIME = {
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
};

/** The kinds the server takes, for messages. */
export const ACCEPTED_KINDS = 'WAV, AIFF, FLAC, MP3, AAC or M4A';

/** How far into the audio (after any ID3v2 tags) an MPEG frame run may start. */
const MPEG_SCAN_BYTES = 64 * 1024;
/** Enough bytes to see a run of frames that starts at the very end of the scanned range. */
const SNIFF_WINDOW_BYTES = MPEG_SCAN_BYTES + 8 * 1024;
/** Consecutive frame headers, each where the one before ends, that make padded bytes MP3. */
const FRAME_RUN = 3;
/** More leading ID3v2 tags than this is not a tagger's work. */
const MAX_ID3_TAGS = 4;

/**
 * The audio container a file's content announces, or undefined (not audio the server takes).
 * @param {string} file
 * @returns {Promise<AudioFormat | undefined>}
 */
export async function sniffAudioFile(file) {
  const handle = await fsp.open(file, 'r');
  try {
    /** @param {number} start @param {number} length */
    const read = async (start, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, start);
      return buffer.subarray(0, bytesRead);
    };
    let offset = 0;
    for (let i = 0; i < MAX_ID3_TAGS; i++) {
      const size = id3v2Size(await read(offset, 10));
      if (size === undefined) break;
      offset += size;
    }
    const head = await read(offset, SNIFF_WINDOW_BYTES);
    return sniffAfterTags(head, offset > 0, head.length < SNIFF_WINDOW_BYTES);
  } finally {
    await handle.close();
  }
}

/**
 * The whole length of an ID3v2 tag that starts `head`, or undefined when none does.
 * @param {Buffer} head
 */
function id3v2Size(head) {
  if (head.length < 10 || head.toString('latin1', 0, 3) !== 'ID3') return undefined;
  const major = /** @type {number} */ (head[3]);
  const flags = /** @type {number} */ (head[5]);
  if (major < 2 || major > 4 || head[4] === 0xff) return undefined;
  let size = 0;
  for (let i = 6; i < 10; i++) {
    const byte = /** @type {number} */ (head[i]);
    // A synchsafe integer: seven bits a byte, the top bit always clear.
    if (byte & 0x80) return undefined;
    size = size * 128 + byte;
  }
  const footer = major === 4 && flags & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * @param {Buffer} head the bytes after any ID3v2 tags
 * @param {boolean} tagged there were ID3v2 tags
 * @param {boolean} ended `head` reaches the end of the file
 * @returns {AudioFormat | undefined}
 */
function sniffAfterTags(head, tagged, ended) {
  if (head.length >= 12) {
    const riff = head.toString('latin1', 0, 4);
    const kind = head.toString('latin1', 8, 12);
    if (riff === 'RIFF' && kind === 'WAVE') return 'wav';
    if (riff === 'FORM' && (kind === 'AIFF' || kind === 'AIFC')) return 'aiff';
    if (head.toString('latin1', 4, 8) === 'ftyp') return 'm4a';
  }
  if (head.length >= 4 && head.toString('latin1', 0, 4) === 'fLaC') return 'flac';
  if (head.length >= 2 && head[0] === 0xff) {
    const second = /** @type {number} */ (head[1]);
    // ADTS (AAC) has layer bits 00; MPEG audio frames (MP3) have a non-zero layer.
    if ((second & 0xf6) === 0xf0) return 'aac';
    // Free format (no bit rate in the header) cannot be chained; the server's probe decides.
    const freeFormat = (second & 0xe0) === 0xe0 && (head[2] ?? 0) >> 4 === 0;
    if ((second & 0x06) !== 0 && (freeFormat || frameRun(head, 0, ended))) return 'mp3';
  }
  // Padding or junk before the first frame: MP3 only if real frames follow one another.
  if (mpegRunAt(head, ended) !== undefined) return 'mp3';
  // An ID3v2 tag has always meant MP3 to the server; its probe still has to agree.
  if (tagged) return 'mp3';
  return undefined;
}

const BITRATES_KBPS = {
  v1l1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
/** @type {Record<number, number[]>} */
const SAMPLE_RATES = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

/**
 * The MPEG audio frame header at `at` (its stream and length), or undefined.
 * @param {Buffer} bytes
 * @param {number} at
 * @returns {{ stream: number; length: number } | undefined}
 */
function mpegFrameAt(bytes, at) {
  if (at + 4 > bytes.length) return undefined;
  const b1 = /** @type {number} */ (bytes[at + 1]);
  const b2 = /** @type {number} */ (bytes[at + 2]);
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
  const bitrate = /** @type {number} */ (table[bitrateIndex]) * 1000;
  const sampleRate = /** @type {number} */ (rates[rateIndex]);
  const padding = (b2 >> 1) & 1;
  const length =
    layer === 3
      ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4
      : Math.floor(((layer === 1 && !v1 ? 72 : 144) * bitrate) / sampleRate) + padding;
  return { stream: (b1 & 0x1e) | (rateIndex << 8), length };
}

/**
 * Where the first run of FRAME_RUN consecutive frames starts within the first MPEG_SCAN_BYTES.
 * @param {Buffer} bytes
 * @param {boolean} ended
 */
function mpegRunAt(bytes, ended) {
  const last = Math.min(bytes.length, MPEG_SCAN_BYTES);
  for (let start = 0; start < last; start++) {
    if (bytes[start] === 0xff && frameRun(bytes, start, ended)) return start;
  }
  return undefined;
}

/**
 * Whether FRAME_RUN frames follow one another from `start` (or fewer that end exactly where the
 * file does, for a file that short).
 * @param {Buffer} bytes
 * @param {number} start
 * @param {boolean} ended
 */
function frameRun(bytes, start, ended) {
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
