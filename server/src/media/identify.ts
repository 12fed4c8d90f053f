import { NotAudioError, probeAudio, type AudioMetadata } from './audio';
import {
  containerMatches,
  mpegHeaderSecondsOfFile,
  sniffAudioFile,
  type AudioFormat,
} from './audio-type';
import type { MediaRunner } from './runner';

/**
 * What an uploaded file is, by its content and by ffprobe, which must agree. Throws NotAudioError
 * when it is no audio we take. An MP3 whose length ffprobe only estimated gets the length of its
 * own Xing/Info/VBRI header where it has one (ffprobe misses it after padding).
 */
export async function identifyAudio(
  runner: MediaRunner,
  file: string,
  timeoutMs: number,
): Promise<{ format: AudioFormat; metadata: AudioMetadata }> {
  const format = await sniffAudioFile(file);
  if (!format) throw new NotAudioError('not a known audio container');
  const metadata = await probeAudio(runner, file, timeoutMs);
  if (!containerMatches(format, metadata.container, metadata.codec))
    throw new NotAudioError('container mismatch');
  if (format === 'mp3' && metadata.durationEstimated) {
    const seconds = await mpegHeaderSecondsOfFile(file);
    if (seconds)
      return { format, metadata: { ...metadata, duration: seconds, durationEstimated: false } };
  }
  return { format, metadata };
}
