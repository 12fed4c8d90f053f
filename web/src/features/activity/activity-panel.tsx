import { useId } from 'react';
import { Link } from 'react-router';
import type { ActivityItem } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatRelativeTime } from '../../lib/format';
import { secondaryButton } from '../../ui/button-styles';
import { Spinner } from '../../ui/spinner';
import { ActorAvatar } from './actor-avatar';
import { useActivity, type ActivitySource } from './activity-api';

const panelClass =
  'rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900';

/** The 'Activity' panel of a project or repository: newest first, 'Load more' for older. */
export function ActivityPanel({ source }: { source: ActivitySource }) {
  const headingId = useId();
  const activity = useActivity(source);
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby={headingId} className={panelClass}>
      <h2 id={headingId} className="text-lg font-semibold">
        Activity
      </h2>
      {activity.isPending ? (
        <div className="mt-3">
          <Spinner label="Loading activity" />
        </div>
      ) : activity.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
          {errorMessage(activity.error, 'Failed to load activity')}
        </p>
      ) : items.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">No activity yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">
          {items.map((item) => (
            <li key={item.id} className="py-2">
              <ActivityLine item={item} />
            </li>
          ))}
        </ul>
      )}
      {activity.hasNextPage && (
        <button
          type="button"
          className={`${secondaryButton} mt-3 w-full`}
          disabled={activity.isFetchingNextPage}
          onClick={() => void activity.fetchNextPage()}
        >
          {activity.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
      {activity.isFetchNextPageError && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {errorMessage(activity.error, 'Failed to load more activity')}
        </p>
      )}
    </section>
  );
}

/** One event: who, what (its readable summary, a link to where it happened) and when. */
export function ActivityLine({ item }: { item: ActivityItem }) {
  const summary = item.href ? (
    <Link
      to={item.href}
      className="text-zinc-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-100"
    >
      {item.summary}
    </Link>
  ) : (
    <span>{item.summary}</span>
  );
  return (
    <div className="flex items-start gap-3 text-sm">
      <ActorAvatar actor={item.actor} />
      <div className="min-w-0 flex-1">
        <p className="break-words">{summary}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          <time dateTime={item.created_at}>{formatRelativeTime(item.created_at)}</time>
        </p>
      </div>
    </div>
  );
}
