import fsp from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { MediaRunner } from './runner';

// Probing an original lives in probe.ts; what the rest of the app imports from here stays here.
export { NotAudioError, probeAudio, type AudioMetadata } from './probe';

/**
 * LAME's algorithm quality (0 best and slowest, 9 fastest; the bit rate is set apart) for the
 * renditions of 128 kbps and below: 5, LAME's own "good speed" setting, where its default (3)
 * spends 25–45 % more CPU on the 128k encode for refinements a 128 kbps stream does not carry
 * audibly. With it the 128k encode and the loudness meter together fit beside the 320k encode on
 * two cores (issue 51: the 128k encode was the last to end on mono and 48 kHz sources).
 */
export const LOW_RATE_LAME_QUALITY = 5;

/**
 * An MP3 rendition; `-fs` caps the output size. The 320k at LAME's default quality; at 128 kbps
 * and below at LOW_RATE_LAME_QUALITY, resampled to 44.1 kHz first, as LAME itself would choose:
 * less work, and no audible difference at a bit rate that low-passes near 17 kHz anyway.
 *
 * With `peaks`, the same decode also feeds the waveform peaks (a 16-bit mono stream on a pipe,
 * split off before the encoder): one decode instead of two. The MP3 is byte for byte the one an
 * encode on its own makes.
 */
export async function encodeMp3(
  runner: MediaRunner,
  input: string,
  output: string,
  kbps: number,
  options: {
    timeoutMs: number;
    maxBytes: number;
    signal?: AbortSignal | undefined;
    niceness?: number | undefined;
    peaks?: PeakFolder | undefined;
  },
): Promise<void> {
  const lowRate =
    kbps <= 128 ? ['-ar', '44100', '-compression_level', String(LOW_RATE_LAME_QUALITY)] : [];
  const mp3 = [
    ...lowRate,
    '-c:a',
    'libmp3lame',
    '-b:a',
    `${kbps}k`,
    '-fs',
    String(options.maxBytes),
    '-f',
    'mp3',
    output,
  ];
  const args = options.peaks
    ? [
        '-y',
        '-nostats',
        '-i',
        input,
        '-filter_complex',
        '[0:a:0]asplit=2[encode][peaks]',
        '-map',
        '[encode]',
        ...mp3,
        ...PEAKS_OUTPUT,
      ]
    : ['-y', '-i', input, '-map', '0:a:0', '-vn', ...mp3];
  await runner.ffmpeg(args, {
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    niceness: options.niceness,
    stdout: options.peaks?.sink,
  });
}

/**
 * The peaks stream: 16-bit mono at the file's own sample rate (no resampling), on stdout.
 * `-flush_packets 0`: written in 32 KB blocks rather than one small write per decoded packet
 * (about 1.4 KB), which cost the server a second of CPU per 5 minutes of audio in reads.
 */
const PEAKS_OUTPUT = peaksOutput('pipe:1');

/** The peaks stream's output options, into `target` (a pipe, or a scratch file). */
function peaksOutput(target: string): string[] {
  return [
    '-map',
    '[peaks]',
    '-ac',
    '1',
    '-f',
    's16le',
    '-acodec',
    'pcm_s16le',
    '-flush_packets',
    '0',
    target,
  ];
}

/** How much of a scratch file of samples is read at a time, into one buffer used again. */
const FOLD_READ_BYTES = 1 << 20;

export interface Peaks {
  peaksPerSecond: number;
  /** min, max pairs in -1..1, `peaksPerSecond` pairs per second of audio. */
  minMax: number[];
  /** 1000 points in 0..1 for the overview waveform. */
  overview: number[];
  /** How much audio actually decoded (less than the header says when a file is cut short). */
  decodedSeconds: number;
}

export const PEAKS_PER_SECOND = 20;
const OVERVIEW_POINTS = 1000;

export interface Analysis {
  peaks: Peaks;
  loudness: Loudness;
}

/** Folds a 16-bit mono PCM stream into min/max pairs as it arrives. */
export class PeakFolder {
  readonly sink: Writable;
  private readonly perBucket: number;
  private readonly minMax: number[] = [];
  /** The current bucket's extremes, as 16-bit sample values. */
  private bucketMin = 0;
  private bucketMax = 0;
  private inBucket = 0;

  constructor(private readonly sampleRate: number) {
    this.perBucket = Math.max(Math.round(sampleRate / PEAKS_PER_SECOND), 1);
    let carry: Buffer | undefined;
    this.sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        const data = carry ? Buffer.concat([carry, chunk]) : chunk;
        const usable = data.length - (data.length % 2);
        carry = usable < data.length ? Buffer.from(data.subarray(usable)) : undefined;
        // A view where the chunk is aligned for Int16Array, a copy where it is not.
        const samples =
          data.byteOffset % 2 === 0
            ? new Int16Array(data.buffer, data.byteOffset, usable / 2)
            : new Int16Array(new Uint8Array(data.subarray(0, usable)).buffer);
        this.fold(samples);
        done();
      },
    });
  }

  /**
   * Min and max are kept as the samples' own integers and scaled once per bucket, and each bucket
   * is one tight loop of Math.min and Math.max: about three times quicker than a division and a
   * bucket check per sample, which matters because it runs while the encodes still want the cores.
   */
  private fold(samples: Int16Array): void {
    const { perBucket, minMax } = this;
    let { bucketMin, bucketMax, inBucket } = this;
    const length = samples.length;
    let i = 0;
    while (i < length) {
      if (inBucket === 0) {
        bucketMin = samples[i] as number;
        bucketMax = bucketMin;
      }
      const end = Math.min(length, i + perBucket - inBucket);
      inBucket += end - i;
      for (; i < end; i++) {
        const sample = samples[i] as number;
        bucketMin = Math.min(bucketMin, sample);
        bucketMax = Math.max(bucketMax, sample);
      }
      if (inBucket === perBucket) {
        minMax.push(round(bucketMin / 32768), round(bucketMax / 32768));
        inBucket = 0;
      }
    }
    this.bucketMin = bucketMin;
    this.bucketMax = bucketMax;
    this.inBucket = inBucket;
  }

  /**
   * Folds a file of 16-bit samples (as the peaks output writes them) read through one buffer
   * used again for every read: no new memory per chunk, unlike a pipe's reads.
   */
  async foldFile(file: string): Promise<void> {
    const handle = await fsp.open(file, 'r');
    try {
      // Its own ArrayBuffer from offset 0: always aligned for Int16Array.
      const buffer = Buffer.allocUnsafeSlow(FOLD_READ_BYTES);
      let kept = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, kept, FOLD_READ_BYTES - kept, null);
        const filled = kept + bytesRead;
        const usable = filled - (filled % 2);
        this.fold(new Int16Array(buffer.buffer, buffer.byteOffset, usable / 2));
        // An odd byte left over starts the next read.
        kept = filled - usable;
        if (kept) buffer[0] = buffer[usable] as number;
        if (bytesRead === 0) return;
      }
    } finally {
      await handle.close();
    }
  }

  /** The peaks of everything written so far (call once the stream has ended). */
  result(): Peaks {
    const minMax = [...this.minMax];
    const decodedSeconds = minMax.length / 2 / PEAKS_PER_SECOND + this.inBucket / this.sampleRate;
    if (this.inBucket > 0)
      minMax.push(round(this.bucketMin / 32768), round(this.bucketMax / 32768));
    return {
      peaksPerSecond: PEAKS_PER_SECOND,
      minMax,
      overview: overviewOf(minMax),
      decodedSeconds,
    };
  }
}

/** framelog=verbose: only the summary is printed, not a line per 100 ms. */
const METER = 'ebur128=peak=true:framelog=verbose';

/**
 * One decode for both analyses: the audio is split into the peaks stream and an EBU R128 meter
 * (true peak on). `-xerror` makes any decoding error fatal, so a corrupt file fails here instead
 * of half-working.
 */
export async function analyse(
  runner: MediaRunner,
  input: string,
  sampleRate: number,
  options: {
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    niceness?: number | undefined;
    /**
     * A scratch file for the samples: ffmpeg writes them there and they are folded once it has
     * finished, through one buffer (the server's memory churn of a pipe's reads saved, and the
     * folding done while the encodes still run). Without it they come through a pipe.
     */
    scratch?: string | undefined;
  },
): Promise<Analysis> {
  const peaks = new PeakFolder(sampleRate);
  const { scratch } = options;
  const { stderr } = await runner.ffmpeg(
    [
      '-xerror',
      '-nostats',
      ...(scratch ? ['-y'] : []),
      '-i',
      input,
      '-filter_complex',
      `[0:a:0]asplit=2[peaks][meter];[meter]${METER}[metered]`,
      ...(scratch ? peaksOutput(scratch) : PEAKS_OUTPUT),
      '-map',
      '[metered]',
      '-f',
      'null',
      '-',
    ],
    {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      niceness: options.niceness,
      ...(scratch ? {} : { stdout: peaks.sink }),
    },
  );
  if (scratch) {
    try {
      await peaks.foldFile(scratch);
    } finally {
      await fsp.rm(scratch, { force: true });
    }
  }
  return { peaks: peaks.result(), loudness: parseLoudness(stderr) };
}

/**
 * The EBU R128 meter (true peak on) alone, the same filter `analyse` runs. `-xerror` makes any
 * decoding error fatal, so a corrupt file fails here instead of half-working.
 */
export async function measureLoudness(
  runner: MediaRunner,
  input: string,
  options: { timeoutMs: number; signal?: AbortSignal | undefined; niceness?: number | undefined },
): Promise<Loudness> {
  const { stderr } = await runner.ffmpeg(
    ['-xerror', '-nostats', '-i', input, '-map', '0:a:0', '-af', METER, '-f', 'null', '-'],
    { timeoutMs: options.timeoutMs, signal: options.signal, niceness: options.niceness },
  );
  return parseLoudness(stderr);
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Folds min/max pairs into a fixed number of absolute peaks for the overview. */
export function overviewOf(minMax: number[]): number[] {
  const pairs = minMax.length / 2;
  if (pairs === 0) return [];
  const points = Math.min(OVERVIEW_POINTS, pairs);
  const out: number[] = [];
  for (let p = 0; p < points; p++) {
    const from = Math.floor((p * pairs) / points);
    const to = Math.max(Math.floor(((p + 1) * pairs) / points), from + 1);
    let peak = 0;
    for (let i = from; i < to; i++) {
      peak = Math.max(peak, Math.abs(minMax[2 * i] ?? 0), Math.abs(minMax[2 * i + 1] ?? 0));
    }
    out.push(round(peak));
  }
  return out;
}

/** Folds min/max pairs into at most `points` signed min and max values (for compact waveforms). */
export function minMaxOverview(
  minMax: number[],
  points = OVERVIEW_POINTS,
): { min: number[]; max: number[] } {
  const pairs = minMax.length / 2;
  const count = Math.min(points, pairs);
  const min: number[] = [];
  const max: number[] = [];
  for (let p = 0; p < count; p++) {
    const from = Math.floor((p * pairs) / count);
    const to = Math.max(Math.floor(((p + 1) * pairs) / count), from + 1);
    let lo = 1;
    let hi = -1;
    for (let i = from; i < to; i++) {
      lo = Math.min(lo, minMax[2 * i] ?? 0);
      hi = Math.max(hi, minMax[2 * i + 1] ?? 0);
    }
    min.push(round(lo));
    max.push(round(hi));
  }
  return { min, max };
}

export interface Loudness {
  integratedLufs: number | null;
  loudnessRange: number | null;
  truePeakDbfs: number | null;
}

/** Reads the summary ffmpeg's ebur128 filter prints at the end. */
export function parseLoudness(stderr: string): Loudness {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const pick = (pattern: RegExp) => {
    const match = pattern.exec(summary);
    const value = match?.[1] ? Number(match[1]) : NaN;
    return Number.isFinite(value) ? value : null;
  };
  return {
    integratedLufs: pick(/I:\s+(-?[\d.]+|-inf) LUFS/),
    loudnessRange: pick(/LRA:\s+(-?[\d.]+) LU/),
    truePeakDbfs: pick(/Peak:\s+(-?[\d.]+|-inf) dBFS/),
  };
}
