import type { BranchWithVersions, Version } from '@takes/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { linkButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { useBranches } from '../projects/projects-api';

/** The compare view's address for two versions of a project. */
export function comparePath(projectId: string, a: string, b: string): string {
  return `/projects/${encodeURIComponent(projectId)}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

/** The version before this one on its branch, if any. */
export function previousVersion(
  version: Pick<Version, 'id' | 'branch_id' | 'version_number'>,
  branches: readonly BranchWithVersions[] | undefined,
): Version | null {
  const branch = branches?.find((b) => b.id === version.branch_id);
  const earlier = (branch?.versions ?? []).filter((v) => v.version_number < version.version_number);
  return earlier.reduce<Version | null>(
    (best, v) => (best === null || v.version_number > best.version_number ? v : best),
    null,
  );
}

/** 'Compare with previous' (when there is one) and 'Compare with…' any other version. */
export function CompareActions({
  version,
  className = linkButton,
}: {
  version: Version;
  className?: string;
}) {
  const branches = useBranches(version.project_id);
  const [picking, setPicking] = useState(false);
  const previous = previousVersion(version, branches.data);
  return (
    <>
      {previous ? (
        <Link
          to={comparePath(version.project_id, version.id, previous.id)}
          className={className}
          aria-label={`Compare Version ${version.version_number} with previous`}
        >
          Compare with previous
        </Link>
      ) : null}
      <button
        type="button"
        className={className}
        onClick={() => setPicking(true)}
        aria-label={`Compare Version ${version.version_number} with…`}
      >
        Compare with…
      </button>
      {picking ? (
        <ComparePicker
          version={version}
          branches={branches.data ?? []}
          onClose={() => setPicking(false)}
        />
      ) : null}
    </>
  );
}

function ComparePicker({
  version,
  branches,
  onClose,
}: {
  version: Version;
  branches: readonly BranchWithVersions[];
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const others = branches
    .map((branch) => ({ branch, versions: branch.versions.filter((v) => v.id !== version.id) }))
    .filter((group) => group.versions.length > 0);
  return (
    <Modal
      title={`Compare Version ${version.version_number} with…`}
      description="Pick another version of this project, on any branch."
      onClose={onClose}
    >
      {others.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          This project has no other version yet.
        </p>
      ) : (
        <div className="max-h-80 space-y-4 overflow-y-auto">
          {others.map(({ branch, versions }) => (
            <section key={branch.id} aria-label={`Branch ${branch.name}`}>
              <h3 className="text-sm font-semibold">{branch.name}</h3>
              <ul className="mt-1 space-y-1">
                {versions.map((v) => (
                  <li key={v.id}>
                    <button
                      type="button"
                      className="w-full rounded px-2 py-1 text-left text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800"
                      onClick={() =>
                        void navigate(comparePath(version.project_id, version.id, v.id))
                      }
                    >
                      Version {v.version_number}
                      {v.message ? ` · ${v.message}` : ''}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </Modal>
  );
}
