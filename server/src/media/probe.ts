import { MediaToolError, type MediaRunner } from './runner';

export interface AudioMetadata {
  duration: number | null;
  codec: string | null;
  container: string | null;
  sampleRate: number | null;
  channels: number | null;
  bitDepth: number | null;
  bitRate: number | null;
  /**
   * The container gave no length (an MP3 without a Xing/Info/VBRI header), so ffprobe estimated
   * it from the first frame's bit rate: wrong for variable bit rates. The decoded length is the
   * truth for such a file.
   */
  durationEstimated?: boolean;
}

interface ProbeOutput {
  format?: { format_name?: string; duration?: string; bit_rate?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    sample_rate?: string;
    channels?: number;
    bits_per_raw_sample?: string;
    bits_per_sample?: number;
    sample_fmt?: string;
    bit_rate?: string;
    duration?: string;
  }[];
}

export class NotAudioError extends Error {
  override name = 'NotAudioError';
}

const num = (value: string | number | undefined | null): number | null => {
  const n =
    typeof value === 'number' ? value : value === undefined || value === null ? NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** ffprobe of the first audio stream. Throws NotAudioError when there is none or it cannot be read. */
export async function probeAudio(
  runner: MediaRunner,
  file: string,
  timeoutMs: number,
): Promise<AudioMetadata> {
  let output: ProbeOutput;
  let warnings: string;
  try {
    // Warnings too: ffprobe says there, and only there, that a length is an estimate.
    const { stdout, stderr } = await runner.ffprobe(
      ['-v', 'warning', '-print_format', 'json', '-show_format', '-show_streams', file],
      { timeoutMs, maxStdoutBytes: 4 * 1024 * 1024 },
    );
    output = JSON.parse(stdout.toString('utf8')) as ProbeOutput;
    warnings = stderr;
  } catch (error) {
    if (error instanceof MediaToolError) throw new NotAudioError(error.message);
    throw error;
  }
  const stream = output.streams?.find((s) => s.codec_type === 'audio');
  if (!stream) throw new NotAudioError('No audio stream found');
  const duration = num(output.format?.duration) ?? num(stream.duration);
  if (!duration) throw new NotAudioError('The audio has no duration');
  return {
    duration,
    codec: stream.codec_name ?? null,
    container: output.format?.format_name ?? null,
    sampleRate: num(stream.sample_rate),
    channels: num(stream.channels),
    bitDepth:
      num(stream.bits_per_raw_sample) ??
      num(stream.bits_per_sample) ??
      bitDepthOfFormat(stream.sample_fmt),
    bitRate: num(stream.bit_rate) ?? num(output.format?.bit_rate),
    durationEstimated: warnings.includes('Estimating duration from bitrate'),
  };
}

function bitDepthOfFormat(sampleFormat: string | undefined): number | null {
  if (!sampleFormat) return null;
  if (sampleFormat.startsWith('s16')) return 16;
  if (sampleFormat.startsWith('s32')) return 32;
  if (sampleFormat.startsWith('u8')) return 8;
  return null;
}
