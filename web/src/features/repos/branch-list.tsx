import { Link } from 'react-router';
import { pluralize } from '../../lib/format';
import { Badge } from '../../ui/badge';
import type { BranchItem } from './branch-selection';

export const panelClass =
  'rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900';

interface BranchListProps {
  repoId: string;
  items: BranchItem[];
  selected: string | null;
  loading: boolean;
  onSelect: (name: string) => void;
}

export function branchPagePath(repoId: string, name: string): string {
  return `/repositories/${repoId}/branch/${encodeURIComponent(name)}`;
}

export function BranchList({ repoId, items, selected, loading, onSelect }: BranchListProps) {
  return (
    <section aria-labelledby="branches-heading" className={panelClass}>
      <h2 id="branches-heading" className="text-lg font-semibold">
        Branches
      </h2>
      {loading ? (
        <div role="status" aria-label="Loading branches" className="mt-3 animate-pulse space-y-2">
          <div className="h-10 rounded bg-zinc-200 dark:bg-zinc-800" />
          <div className="h-10 rounded bg-zinc-200 dark:bg-zinc-800" />
        </div>
      ) : items.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">No branches yet.</p>
      ) : (
        <ul aria-label="Branch list" className="mt-3 max-h-96 space-y-1 overflow-y-auto">
          {items.map((branch) => {
            const isSelected = branch.name === selected;
            return (
              <li
                key={branch.name}
                className={`flex items-center gap-2 rounded-md px-2 py-1.5 ${
                  isSelected
                    ? 'bg-indigo-50 ring-1 ring-indigo-300 dark:bg-indigo-950 dark:ring-indigo-800'
                    : 'hover:bg-zinc-50 dark:hover:bg-zinc-800'
                }`}
              >
                <button
                  type="button"
                  aria-pressed={isSelected}
                  onClick={() => onSelect(branch.name)}
                  className="flex min-w-0 flex-1 flex-col items-start rounded text-left focus-visible:outline-2 focus-visible:outline-indigo-500"
                >
                  <span className="flex max-w-full items-center gap-2">
                    <span className="truncate font-medium">{branch.name}</span>
                    {branch.isDefault && <Badge tone="indigo">default</Badge>}
                  </span>
                  {branch.commitCount !== null && (
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">
                      {pluralize(branch.commitCount, 'commit', 'commits')}
                      {branch.bounceCount !== null
                        ? ` · ${pluralize(branch.bounceCount, 'bounce', 'bounces')}`
                        : ''}
                    </span>
                  )}
                </button>
                {!branch.pseudo && (
                  <Link
                    to={branchPagePath(repoId, branch.name)}
                    aria-label={`Open branch ${branch.name}`}
                    title="Open branch"
                    className="rounded px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:bg-indigo-950"
                  >
                    Open
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function RepoInfoBox({ repoId, branch }: { repoId: string; branch: string | null }) {
  return (
    <section aria-label="Repository info" className={panelClass}>
      <dl className="space-y-2 text-sm">
        <div>
          <dt className="font-medium text-zinc-600 dark:text-zinc-300">Repository ID</dt>
          <dd className="font-mono text-xs break-all">{repoId}</dd>
        </div>
        <div>
          <dt className="font-medium text-zinc-600 dark:text-zinc-300">Branch</dt>
          <dd className="break-all">{branch ?? '—'}</dd>
        </div>
      </dl>
    </section>
  );
}
