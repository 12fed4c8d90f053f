import type { Bounce } from '@takes/contract';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { Spinner } from '../../ui/spinner';
import { BouncePlayButton } from '../bounces/bounce-play-button';
import { bounceTitle, bounceTrack } from '../bounces/bounce-track';
import { BounceWaveform } from '../bounces/bounce-waveform';
import { formatTime } from '../player/format-time';
import { shortSha } from './branch-selection';
import { panelClass } from './branch-list';

function StatusBadge({ bounce }: { bounce: Bounce }) {
  if (bounce.status === 'processing') return <Badge tone="amber">Processing</Badge>;
  if (bounce.status === 'failed') return <Badge tone="red">Failed</Badge>;
  return null;
}

interface NowPreviewingProps {
  bounce: Bounce;
  repoName: string;
  coverUrl: string | null;
}

/** The bounce chosen for preview (the newest until another is picked), with its waveform. */
export function NowPreviewing({ bounce, repoName, coverUrl }: NowPreviewingProps) {
  const track = bounceTrack(bounce, repoName, coverUrl);
  return (
    <section
      aria-labelledby="now-previewing-heading"
      className="rounded-lg border border-indigo-200 bg-indigo-50/50 p-4 dark:border-indigo-900 dark:bg-indigo-950/30"
    >
      <p
        id="now-previewing-heading"
        className="text-xs font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300"
      >
        Now previewing
      </p>
      <div className="mt-2 flex items-center gap-3">
        <BouncePlayButton track={track} disabled={bounce.status === 'failed'} />
        <div className="min-w-0 flex-1">
          <h2 className="flex flex-wrap items-center gap-2 font-semibold break-words">
            {bounceTitle(bounce)} <StatusBadge bounce={bounce} />
          </h2>
          <p className="text-xs text-zinc-600 dark:text-zinc-300">
            {bounce.branch} · {shortSha(bounce.commit_sha)} · {formatDate(bounce.created_at)} ·{' '}
            {formatTime(bounce.duration)}
          </p>
        </div>
      </div>
      <div className="mt-3">
        <BounceWaveform track={track} waveform={bounce.waveform_json} height={80} />
      </div>
      {bounce.status === 'failed' && bounce.error && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-400">{bounce.error}</p>
      )}
    </section>
  );
}

interface ActivityListProps {
  bounces: Bounce[];
  repoName: string;
  loading: boolean;
  selectedId: string | null;
  onSelect: (bounceId: string) => void;
}

/** The branch's bounces, newest first, each with a play button; a row click previews it. */
export function ActivityList({
  bounces,
  repoName,
  loading,
  selectedId,
  onSelect,
}: ActivityListProps) {
  return (
    <section aria-labelledby="bounces-heading" className={panelClass}>
      <h2 id="bounces-heading" className="text-lg font-semibold">
        Bounces
      </h2>
      {loading ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading activity" />
        </div>
      ) : bounces.length === 0 ? (
        <p className="py-6 text-center text-sm text-zinc-600 dark:text-zinc-300">
          No activity for this branch yet.
        </p>
      ) : (
        <ul aria-label="Branch activity" className="mt-3 max-h-96 space-y-1 overflow-y-auto">
          {bounces.map((bounce) => {
            const selected = bounce.id === selectedId;
            return (
              <li
                key={bounce.id}
                className={`flex items-center gap-3 rounded-md px-2 py-2 ${
                  selected
                    ? 'bg-indigo-50 ring-1 ring-indigo-300 dark:bg-indigo-950 dark:ring-indigo-800'
                    : 'hover:bg-zinc-50 dark:hover:bg-zinc-800'
                }`}
              >
                <BouncePlayButton
                  track={bounceTrack(bounce, repoName)}
                  disabled={bounce.status === 'failed'}
                />
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => onSelect(bounce.id)}
                  className="flex min-w-0 flex-1 flex-col items-start rounded text-left focus-visible:outline-2 focus-visible:outline-indigo-500"
                >
                  <span className="flex max-w-full items-center gap-2">
                    <span className="truncate font-medium">{bounceTitle(bounce)}</span>
                    <StatusBadge bounce={bounce} />
                  </span>
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    Published {formatRelativeTime(bounce.created_at)} on {bounce.branch} ·{' '}
                    {formatTime(bounce.duration)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
