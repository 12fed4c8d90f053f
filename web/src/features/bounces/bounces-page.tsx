import { useMemo, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { useCurrentUser } from '../auth/use-auth';
import { useRepositories } from '../repos/repos-api';
import { BounceGroupCard } from './bounce-group-card';
import { useRecentBounces } from './bounces-api';
import { groupRecent } from './group-recent';

export function BouncesPage() {
  useDocumentTitle('Bounces · Takes');
  const user = useCurrentUser();
  const recent = useRecentBounces();
  // Only for repository covers; a failure here is silently ignored (no message, no retry).
  const repos = useRepositories();
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const [selected, setSelected] = useState<Record<string, string>>({});

  const groups = useMemo(() => groupRecent(recent.data ?? []), [recent.data]);
  const repoCovers = useMemo(
    () => new Map((repos.data ?? []).map((repo) => [repo.id, repo.cover_url])),
    [repos.data],
  );

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-10 sm:px-6">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">Bounces</h1>
        <p className="mt-1 text-zinc-600 dark:text-zinc-300">
          Recent audio across repos and projects
        </p>
      </header>

      <section aria-labelledby="recent-heading" className="space-y-4">
        <div className="flex items-center gap-3">
          <h2 id="recent-heading" className="text-xl font-semibold">
            Recent
          </h2>
          {recent.isFetching && (
            <span
              role="status"
              className="inline-flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300"
            >
              <span
                aria-hidden="true"
                className="size-2 animate-pulse rounded-full bg-indigo-500"
              />
              Scanning…
            </span>
          )}
        </div>

        {recent.isError ? (
          <Alert tone="error">{errorMessage(recent.error, 'Failed to load')}</Alert>
        ) : recent.isPending ? null : groups.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
            No recent bounces found. Publish a bounce from the desktop app.
          </p>
        ) : (
          <ul
            aria-label="Recent bounces"
            className="grid items-start gap-6 sm:grid-cols-2 lg:grid-cols-3"
          >
            {groups.map((group) => {
              const repoId = group.items[0]?.repo_id;
              return (
                <BounceGroupCard
                  key={group.key}
                  group={group}
                  selectedId={selected[group.key]}
                  expanded={expanded[group.key] ?? false}
                  onToggle={() =>
                    setExpanded((state) => ({ ...state, [group.key]: !state[group.key] }))
                  }
                  onSelect={(itemId) => setSelected((state) => ({ ...state, [group.key]: itemId }))}
                  repoCover={repoId ? (repoCovers.get(repoId) ?? null) : null}
                  avatarUrl={user.avatar_url}
                />
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
