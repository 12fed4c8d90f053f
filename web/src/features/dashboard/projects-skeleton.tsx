import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { cardClass, RECENT_PROJECTS } from './dashboard-styles';

/**
 * A grey bar one line of the surrounding text tall (a no-break space sets the line box), standing
 * in for text that is still loading.
 */
export function SkeletonLine({ width }: { width: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block max-w-full animate-pulse rounded bg-zinc-200 align-middle dark:bg-zinc-800 ${width}`}
    >
      {'\u00a0'}
    </span>
  );
}

/** Table rows the loading skeleton shows. */
const SKELETON_ROWS = 5;

/**
 * What the project list will look like while it loads: the recent cards and the table rows at
 * their final size, so nothing below them moves when they fill in.
 */
export function ProjectsSkeleton() {
  return (
    <div className="space-y-10" data-testid="projects-skeleton">
      <p role="status" className="sr-only">
        Loading projects
      </p>
      <div aria-hidden="true">
        <p className="text-xl font-semibold">
          <SkeletonLine width="w-40" />
        </p>
        <ul className="mt-4 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: RECENT_PROJECTS }, (_, i) => (
            <li key={i} className={`${cardClass} flex flex-col`}>
              <p className="font-semibold">
                <SkeletonLine width="w-40" />
              </p>
              <p className="mt-2 text-sm">
                <SkeletonLine width="w-48" />
              </p>
              <p className="mt-2 text-xs">
                <SkeletonLine width="w-28" />
              </p>
              <div className="mt-3 text-sm">
                <p>
                  <SkeletonLine width="w-20" />
                </p>
                <p className="mt-1 text-xs">
                  <SkeletonLine width="w-16" />
                </p>
              </div>
              <div className="mt-4 flex items-center justify-between gap-2 pt-2">
                <span className={`${secondaryButton} invisible px-3 py-1.5`}>Delete</span>
                <span className={`${primaryButton} invisible px-3 py-1.5`}>Open</span>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <div aria-hidden="true">
        <p className="text-xl font-semibold">
          <SkeletonLine width="w-36" />
        </p>
        <div className="mt-4 divide-y divide-zinc-200 rounded-lg border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800">
          <div className="bg-zinc-50 px-4 py-3 dark:bg-zinc-900">
            <SkeletonLine width="w-24" />
          </div>
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <div key={i} className="flex items-center justify-between px-4 py-3">
              <SkeletonLine width="w-40" />
              <span className="inline-block rounded px-2 py-1">
                <SkeletonLine width="w-12" />
              </span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
