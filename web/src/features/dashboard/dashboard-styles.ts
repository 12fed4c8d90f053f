/** A dashboard card: the figures, the project cards, the quick actions. */
export const cardClass =
  'rounded-lg border border-zinc-200 bg-white p-5 shadow-sm dark:border-zinc-800 dark:bg-zinc-900';

/** Project cards under 'Recent Projects' (and in their loading skeleton). */
export const RECENT_PROJECTS = 3;
