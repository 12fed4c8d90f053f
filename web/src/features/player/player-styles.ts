// The global player's Tailwind classes, shared by its bar, its sheet and the full controls.

const barPlacement = 'fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 dark:border-zinc-800';
export const barSurface = `${barPlacement} bg-white/95 backdrop-blur dark:bg-zinc-900/95`;
/** The expanded sheet is opaque: the page under it would show through its upper part. */
export const sheetSurface = `${barPlacement} bg-white dark:bg-zinc-900`;

export const playButton =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500';

export const iconButton =
  'inline-flex size-9 shrink-0 items-center justify-center rounded-full text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-zinc-200 dark:hover:bg-zinc-800';

export const rangeInput =
  'h-1.5 cursor-pointer accent-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 dark:accent-indigo-400';

/** The skip buttons (and the arrow keys) move 10 s. */
export const SKIP_SECONDS = 10;
