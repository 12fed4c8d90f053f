import { Link, useNavigate } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';

/** react-router's data router keeps the position in its history stack as `idx`. */
function hasHistoryToGoBackTo(): boolean {
  const state = window.history.state as { idx?: unknown } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

export function NotFoundPage() {
  usePageMeta('Page not found · Takes', 'There is no page at this address on Takes.');
  const navigate = useNavigate();
  const canGoBack = hasHistoryToGoBackTo();

  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="text-6xl font-extrabold tracking-tight text-indigo-600 dark:text-indigo-400">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">
        Page not found
      </h1>
      <div className="mt-10 flex flex-wrap items-center justify-center gap-3">
        {canGoBack && (
          <button
            type="button"
            onClick={() => void navigate(-1)}
            className="rounded-md border border-zinc-300 px-4 py-2 text-sm font-semibold text-zinc-800 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            Go back
          </button>
        )}
        <Link
          to="/"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          Go to home
        </Link>
      </div>
    </div>
  );
}
