import { routes, type VersionChanges } from '@takes/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { formatTime } from '../player/format-time';

/** How often a pending comparison is asked again. */
const PENDING_POLL_MS = 2000;

/** What changed in version `a` against version `b`, on a's timeline (asked again while pending). */
export function useVersionChanges(a: string, b: string) {
  return useQuery({
    queryKey: ['changes', a, b],
    queryFn: ({ signal }) =>
      api.call(routes.review.getVersionChanges, {
        params: { versionId: a },
        query: { against: b },
        signal,
      }),
    enabled: a !== '' && b !== '',
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  });
}

function describe(region: VersionChanges['regions'][number]): string {
  const span = `${formatTime(region.start)}–${formatTime(region.end)}`;
  return region.inserted
    ? `Inserted ${span}: no counterpart in the other version`
    : `Changed ${span}: difference at ${region.level_db.toFixed(1)} dB`;
}

/**
 * 'Changes': a lane under A's waveform, quiet where the two versions null and coloured where they
 * differ (the level on hover; a click plays from there). n / Shift+n jump between changes.
 */
export function ChangesLane({
  changes,
  duration,
  onJump,
}: {
  changes: VersionChanges | undefined;
  duration: number;
  onJump: (seconds: number) => void;
}) {
  const regions = changes?.status === 'ready' ? changes.regions : [];
  const percent = (seconds: number) =>
    duration > 0 ? `${Math.min(100, Math.max(0, (seconds / duration) * 100))}%` : '0%';
  let note: string | null = null;
  if (!changes || changes.status === 'pending') note = 'Finding what changed…';
  else if (changes.status === 'failed')
    note = changes.error ?? 'The versions could not be compared.';
  else if (regions.length === 0) note = 'No changes: the two versions null.';
  else
    note = `${regions.length === 1 ? '1 change' : `${regions.length} changes`} · n / Shift+n to jump`;
  return (
    <div
      className="space-y-1"
      data-testid="changes-lane"
      data-status={changes?.status ?? 'pending'}
    >
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="font-semibold text-zinc-700 dark:text-zinc-300">Changes</span>
        <span
          role={changes?.status === 'failed' ? 'alert' : 'status'}
          className="text-zinc-600 dark:text-zinc-400"
        >
          {note}
        </span>
      </div>
      <ul
        aria-label="Changes"
        className="relative h-3 w-full overflow-hidden rounded bg-zinc-100 dark:bg-zinc-800"
      >
        {regions.map((region) => (
          <li key={`${region.start}-${region.end}`}>
            <button
              type="button"
              data-testid="change"
              data-start={region.start}
              title={describe(region)}
              aria-label={describe(region)}
              onClick={() => onJump(region.start)}
              style={{
                left: percent(region.start),
                width: `max(4px, calc(${percent(region.end)} - ${percent(region.start)}))`,
              }}
              className={`absolute inset-y-0 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 ${
                region.inserted
                  ? 'bg-sky-500 hover:bg-sky-600 dark:bg-sky-400'
                  : 'bg-rose-500 hover:bg-rose-600 dark:bg-rose-400'
              }`}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
