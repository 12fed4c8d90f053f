import fsp from 'node:fs/promises';
import {
  id3v2Size,
  MAX_ID3_TAGS,
  mpegHeaderSeconds,
  SNIFF_WINDOW_BYTES,
  sniffAudioSource,
  type AudioFormat,
  type ByteReader,
} from '@takes/contract';

// The byte-level sniffing lives in the contract (the CLI's `takes watch` decides the same way).
export {
  AUDIO_MIME,
  id3v2Size,
  MPEG_SCAN_BYTES,
  mpegFrameAt,
  mpegHeaderSeconds,
  mpegRunAt,
  SNIFF_WINDOW_BYTES,
  sniffAudio,
  sniffAudioSource,
  type AudioFormat,
  type ByteReader,
} from '@takes/contract';

/** A reader over a file on disk. */
export function fileReader(handle: {
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
}): ByteReader {
  return async (start, length) => {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, start);
    return buffer.subarray(0, bytesRead);
  };
}

/** Whether ffprobe's view of the file agrees with what its first bytes said. */
export function containerMatches(
  format: AudioFormat,
  container: string | null,
  codec: string | null,
): boolean {
  const names = (container ?? '').split(',');
  switch (format) {
    case 'wav':
      return names.includes('wav');
    case 'aiff':
      return names.includes('aiff');
    case 'flac':
      return names.includes('flac');
    case 'mp3':
      return names.includes('mp3');
    case 'aac':
      return names.includes('aac') && codec === 'aac';
    case 'm4a':
      return names.includes('mp4') || names.includes('m4a') || names.includes('mov');
  }
}

/** sniffAudioSource over a file on disk. */
export async function sniffAudioFile(file: string): Promise<AudioFormat | undefined> {
  const handle = await fsp.open(file, 'r');
  try {
    return await sniffAudioSource(fileReader(handle));
  } finally {
    await handle.close();
  }
}

/** mpegHeaderSeconds of a file on disk (reading past leading ID3v2 tags). */
export async function mpegHeaderSecondsOfFile(file: string): Promise<number | undefined> {
  const handle = await fsp.open(file, 'r');
  try {
    const read = fileReader(handle);
    let offset = 0;
    for (let i = 0; i < MAX_ID3_TAGS; i++) {
      const size = id3v2Size(await read(offset, 10));
      if (size === undefined) break;
      offset += size;
    }
    return mpegHeaderSeconds(await read(offset, SNIFF_WINDOW_BYTES));
  } finally {
    await handle.close();
  }
}
