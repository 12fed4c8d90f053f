import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Repository } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { inputClass } from '../../ui/text-field';
import { RoleBadge } from '../members/role-badge';
import { CreateRepoModal } from './create-repo-modal';
import { useRepositories } from './repos-api';

/** The repositories list filters by name, case-insensitively. */
export function filterRepositories(repos: readonly Repository[], query: string): Repository[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...repos];
  return repos.filter((repo) => repo.name.toLowerCase().includes(needle));
}

export function RepositoriesPage() {
  useDocumentTitle('Repositories · Takes');
  const navigate = useNavigate();
  const repos = useRepositories();
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">
          Repositories
        </h1>
        <button type="button" className={primaryButton} onClick={() => setCreating(true)}>
          New repository
        </button>
      </div>

      <div className="max-w-md">
        <label htmlFor="repo-search" className="sr-only">
          Search repositories
        </label>
        <input
          id="repo-search"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search repositories"
          autoComplete="off"
          className={`${inputClass} border-zinc-300 dark:border-zinc-700`}
        />
      </div>

      {repos.isPending ? (
        <PageSpinner label="Loading repositories" />
      ) : repos.isError ? (
        <Alert tone="error">{errorMessage(repos.error, 'Failed to load')}</Alert>
      ) : (
        <RepositoryTable repos={repos.data} query={query} />
      )}

      {creating && (
        <CreateRepoModal
          onClose={() => setCreating(false)}
          onCreated={(repo) => {
            setCreating(false);
            void navigate(`/repositories/${repo.id}`);
          }}
        />
      )}
    </div>
  );
}

const emptyClass =
  'rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300';

function RepositoryTable({ repos, query }: { repos: Repository[]; query: string }) {
  if (repos.length === 0) return <p className={emptyClass}>No repositories yet.</p>;
  const shown = filterRepositories(repos, query);
  if (shown.length === 0) return <p className={emptyClass}>No matches for your search.</p>;

  const headClass =
    'px-4 py-3 text-left text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-300';
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        <thead className="bg-zinc-50 dark:bg-zinc-900">
          <tr>
            <th scope="col" className={headClass}>
              Name
            </th>
            <th scope="col" className={headClass}>
              Last activity
            </th>
            <th scope="col" className={`${headClass} text-right`}>
              Patches
            </th>
            <th scope="col" className={`${headClass} text-right`}>
              Bounces
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 bg-white dark:divide-zinc-800 dark:bg-zinc-950">
          {shown.map((repo) => (
            <tr key={repo.id} className="hover:bg-zinc-50 dark:hover:bg-zinc-900">
              <td className="px-4 py-3">
                <span className="flex flex-wrap items-center gap-2">
                  <Link
                    to={`/repositories/${repo.id}`}
                    className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
                  >
                    {repo.name}
                  </Link>
                  {/* Shared with you: your role there. */}
                  {repo.role !== 'owner' && <RoleBadge role={repo.role} />}
                </span>
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-zinc-600 dark:text-zinc-300">
                <time dateTime={repo.last_activity_at} title={formatDate(repo.last_activity_at)}>
                  {formatRelativeTime(repo.last_activity_at)}
                </time>
              </td>
              <td className="px-4 py-3 text-right tabular-nums">{repo.patch_count}</td>
              <td className="px-4 py-3 text-right tabular-nums">{repo.bounce_count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
