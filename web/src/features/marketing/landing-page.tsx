import { Link } from 'react-router';

/**
 * The landing hero with its two ways in. The rest of the landing page (feature cards,
 * 'Sound familiar?', the closing call to action) arrives with the public-site issue.
 */
export function LandingPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-zinc-900 sm:text-4xl dark:text-white">
        Music version control with zero data harvesting
      </h1>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link
          to="/login"
          className="rounded-md bg-zinc-900 px-4 py-2 text-sm font-semibold text-white hover:bg-zinc-700 dark:bg-white dark:text-zinc-900 dark:hover:bg-zinc-200"
        >
          Get Started
        </Link>
        <Link
          to="/login?demo=true"
          className="rounded-md border border-zinc-300 px-4 py-2 text-sm font-semibold text-zinc-900 hover:bg-zinc-100 dark:border-zinc-700 dark:text-white dark:hover:bg-zinc-800"
        >
          Try demo
        </Link>
      </div>
    </div>
  );
}
