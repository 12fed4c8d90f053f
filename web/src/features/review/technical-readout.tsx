import { TRUE_PEAK_WARNING, TRUE_PEAK_WARNING_DBTP, type Version } from '@takes/contract';
import { Badge } from '../../ui/badge';
import { formatTime } from '../player/format-time';

const NONE = '—';

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Bytes as people read them: '48.3 MB'. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return NONE;
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** What processing found out about the version's audio, as the readout lists it. */
export function readoutOf(version: Pick<Version, 'metadata' | 'loudness' | 'file_size'>) {
  const meta = version.metadata ?? {};
  const loudness = version.loudness;
  const format = [meta.container, meta.codec].find((v): v is string => typeof v === 'string');
  const sampleRate = num(meta.sampleRate);
  const bitDepth = num(meta.bitDepth);
  const channels = num(meta.channels);
  const truePeak = num(loudness?.true_peak_dbfs);
  return {
    duration: num(meta.duration),
    format: format ? format.toUpperCase() : null,
    sampleRate,
    bitDepth,
    channels,
    fileSize: num(version.file_size),
    integratedLufs: num(loudness?.integrated_lufs),
    loudnessRange: num(loudness?.loudness_range),
    truePeak,
    mayClip: truePeak !== null && truePeak > TRUE_PEAK_WARNING_DBTP,
  };
}

function channelsText(channels: number | null): string {
  if (channels === null) return NONE;
  if (channels === 1) return 'Mono';
  if (channels === 2) return 'Stereo';
  return `${channels} channels`;
}

/**
 * The technical readout: duration, format, sample rate, bit depth, channels, file size, and the
 * loudness analysis (integrated LUFS, loudness range, true peak) with 'May clip after encoding'
 * when the true peak is above −1 dBTP.
 */
export function TechnicalReadout({
  version,
}: {
  version: Pick<Version, 'metadata' | 'loudness' | 'file_size'>;
}) {
  const r = readoutOf(version);
  const rows: [string, string][] = [
    ['Duration', r.duration === null ? NONE : formatTime(r.duration)],
    ['Format', r.format ?? NONE],
    ['Sample rate', r.sampleRate === null ? NONE : `${(r.sampleRate / 1000).toFixed(1)} kHz`],
    ['Bit depth', r.bitDepth === null ? NONE : `${r.bitDepth}-bit`],
    ['Channels', channelsText(r.channels)],
    ['File size', formatBytes(r.fileSize)],
    [
      'Integrated loudness',
      r.integratedLufs === null ? NONE : `${r.integratedLufs.toFixed(1)} LUFS`,
    ],
    ['Loudness range', r.loudnessRange === null ? NONE : `${r.loudnessRange.toFixed(1)} LU`],
    ['True peak', r.truePeak === null ? NONE : `${r.truePeak.toFixed(1)} dBTP`],
  ];
  return (
    <section aria-labelledby="readout-heading" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="readout-heading" className="text-sm font-semibold">
          Technical details
        </h2>
        {r.mayClip ? (
          <span data-testid="clip-warning">
            <Badge tone="red">{TRUE_PEAK_WARNING}</Badge>
          </span>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="font-mono tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
