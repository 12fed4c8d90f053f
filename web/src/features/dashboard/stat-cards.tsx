import type { StatsResponse } from '@takes/contract';
import { formatDate } from '../../lib/format';
import { useStats } from '../projects/projects-api';
import { cardClass } from './dashboard-styles';
import { SkeletonLine } from './projects-skeleton';

/**
 * Events in the last 30 days. The server's activity count (`activity_last_month`, issue 15) is
 * read when the answer carries it; until then, the versions uploaded in the last month.
 */
function activityLastMonth(stats: StatsResponse): number {
  const counted = (stats as StatsResponse & { activity_last_month?: unknown }).activity_last_month;
  return typeof counted === 'number' ? counted : stats.versions_last_month;
}

/** 'Projects', 'Tracks' and 'Activity': the caller's figures, with placeholders while they load. */
export function StatCards() {
  const stats = useStats();
  const data = stats.data;
  const value = (n: number | undefined) => (n === undefined ? '–' : String(n));
  return (
    <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-3">
      <div className={cardClass}>
        <h2 className="text-sm font-medium text-zinc-600 dark:text-zinc-300">Projects</h2>
        <p className="mt-2 text-3xl font-bold">{value(data?.projects)}</p>
      </div>
      <div className={cardClass}>
        <h2 className="text-sm font-medium text-zinc-600 dark:text-zinc-300">Tracks</h2>
        <p className="mt-2 text-3xl font-bold">{value(data?.tracks)}</p>
        {data ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            Last update: {data.last_update ? formatDate(data.last_update) : 'Never'}
          </p>
        ) : (
          <p className="mt-1 text-sm" data-testid="stat-placeholder">
            <SkeletonLine width="w-36" />
          </p>
        )}
      </div>
      <div className={cardClass}>
        <h2 className="text-sm font-medium text-zinc-600 dark:text-zinc-300">Activity</h2>
        <p className="mt-2 text-3xl font-bold">{data ? `+${activityLastMonth(data)}` : '–'}</p>
        {data ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            +{activityLastMonth(data)} in the last month
          </p>
        ) : (
          <p className="mt-1 text-sm" data-testid="stat-placeholder">
            <SkeletonLine width="w-32" />
          </p>
        )}
      </div>
    </section>
  );
}
