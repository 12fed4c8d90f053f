export type AudioFormat = 'wav' | 'flac' | 'mp3' | 'aac' | 'm4a';

/** The audio container a file's first bytes announce, or undefined. Names and MIME types are ignored. */
export function sniffAudio(head: Buffer): AudioFormat | undefined {
  if (
    head.length >= 12 &&
    head.toString('latin1', 0, 4) === 'RIFF' &&
    head.toString('latin1', 8, 12) === 'WAVE'
  )
    return 'wav';
  if (head.length >= 4 && head.toString('latin1', 0, 4) === 'fLaC') return 'flac';
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return 'm4a';
  if (head.length >= 3 && head.toString('latin1', 0, 3) === 'ID3') return 'mp3';
  if (head.length >= 2 && head[0] === 0xff) {
    const second = head[1] ?? 0;
    // ADTS (AAC) has layer bits 00; MPEG audio frames (MP3) have a non-zero layer.
    if ((second & 0xf6) === 0xf0) return 'aac';
    if ((second & 0xe0) === 0xe0 && (second & 0x06) !== 0) return 'mp3';
  }
  return undefined;
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

export const AUDIO_MIME: Record<AudioFormat, string> = {
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
};
