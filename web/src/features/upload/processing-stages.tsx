import type { ProcessingResponse } from '@takes/contract';
import { formatFileSize } from '../../lib/format';

interface Stage {
  label: string;
  done: (status: ProcessingResponse) => boolean;
  detail?: (status: ProcessingResponse) => string | null;
}

const STAGES: Stage[] = [
  { label: 'Metadata', done: (s) => s.has_metadata },
  {
    label: 'Original',
    done: (s) => s.quality_progress.original.available,
    detail: (s) => s.quality_progress.original.format?.toUpperCase() ?? null,
  },
  {
    label: 'High (320k)',
    done: (s) => s.quality_progress.high.available,
    detail: (s) => sizeOf(s.quality_progress.high.file_size),
  },
  {
    label: 'Standard (128k)',
    done: (s) => s.quality_progress.standard.available,
    detail: (s) => sizeOf(s.quality_progress.standard.file_size),
  },
  { label: 'Waveform', done: (s) => s.has_waveform },
];

function sizeOf(bytes: number | null): string | null {
  return bytes === null ? null : formatFileSize(bytes);
}

/** The processing stages of a version: Metadata, Original, High (320k), Standard (128k), Waveform. */
export function ProcessingStages({
  status,
  error,
}: {
  status: ProcessingResponse | undefined;
  error?: string | null;
}) {
  const failed = status?.status === 'failed';
  return (
    <section aria-label="Processing" className="space-y-2">
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium">
          {failed
            ? 'Processing failed'
            : status?.status === 'completed'
              ? 'Processing complete'
              : 'Processing...'}
        </span>
        {status && <span>{status.progress_percentage}%</span>}
      </div>
      <ul className="grid gap-1 text-sm sm:grid-cols-5">
        {STAGES.map((stage) => {
          const done = status ? stage.done(status) : false;
          const detail = status && done ? stage.detail?.(status) : null;
          return (
            <li
              key={stage.label}
              data-stage={stage.label}
              data-done={done}
              className={`rounded-md border px-2 py-1.5 ${
                done
                  ? 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100'
                  : 'border-zinc-200 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300'
              }`}
            >
              <span aria-hidden="true">{done ? '✓ ' : '○ '}</span>
              {stage.label}
              <span className="sr-only">{done ? ' done' : ' pending'}</span>
              {detail && <span className="block text-xs opacity-80">{detail}</span>}
            </li>
          );
        })}
      </ul>
      {(failed || error) && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {status?.error ?? error}
        </p>
      )}
    </section>
  );
}

export function ProgressBar({
  percent,
  label,
  detail,
}: {
  percent: number;
  label: string;
  /** Bytes sent, speed and time left, under the bar. */
  detail?: string | undefined;
}) {
  return (
    <div>
      <div className="flex justify-between text-sm">
        <span>{label}</span>
        <span>{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-1 h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className="h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400"
          style={{ width: `${percent}%` }}
        />
      </div>
      {detail && (
        <p className="mt-1 text-xs text-zinc-600 tabular-nums dark:text-zinc-400" aria-live="off">
          {detail}
        </p>
      )}
    </div>
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "12.0 MB of 60.0 MB · 1.5 MB/s · 32 s left": real bytes, the speed lately and the time left. */
export function uploadDetail(progress: {
  sent: number;
  total: number;
  bytesPerSecond: number;
  secondsLeft: number | null;
}): string {
  const parts = [`${megabytes(progress.sent)} of ${megabytes(progress.total)}`];
  if (progress.bytesPerSecond > 0) parts.push(`${megabytes(progress.bytesPerSecond)}/s`);
  if (progress.secondsLeft !== null && progress.sent < progress.total)
    parts.push(`${duration(progress.secondsLeft)} left`);
  return parts.join(' · ');
}
