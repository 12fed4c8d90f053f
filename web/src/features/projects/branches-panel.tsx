import { useState, type FormEvent } from 'react';
import { may, type BranchWithVersions, type Role } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { useDeleteBranch, useRenameBranch, useSetDefaultBranch } from './projects-api';

interface BranchesPanelProps {
  projectId: string;
  /** The caller's role: uploading and changing branches need Editor. */
  role: Role;
  branches: BranchWithVersions[];
  selectedId: string | null;
  onSelect: (branchId: string) => void;
  onNewBranch: () => void;
  onUpload: (branch: BranchWithVersions) => void;
  onDeleted: (branchId: string) => void;
}

const iconButton =
  'rounded p-1.5 text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:text-zinc-300 dark:hover:bg-zinc-700 dark:hover:text-white';

export function BranchesPanel(props: BranchesPanelProps) {
  const { projectId, branches } = props;
  const canUpload = may(props.role, 'upload');
  const canManage = may(props.role, 'manageBranches');
  const setDefault = useSetDefaultBranch(projectId);
  const [deleting, setDeleting] = useState<BranchWithVersions | null>(null);
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const failure = setDefault.error;

  return (
    <section
      aria-labelledby="branches-heading"
      className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-start justify-between gap-2">
        <div>
          <h2 id="branches-heading" className="text-lg font-semibold">
            Branches
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-300">
            Select a branch to view its versions
          </p>
        </div>
        {canManage && (
          <button
            type="button"
            className={`${secondaryButton} shrink-0 px-3 py-1.5 whitespace-nowrap`}
            onClick={props.onNewBranch}
          >
            New Branch
          </button>
        )}
      </div>
      {failure && (
        <Alert tone="error" className="mt-3">
          {errorMessage(failure, 'Failed to update the branch.')}
        </Alert>
      )}

      {branches.length === 0 ? (
        <div className="mt-6 text-center text-sm">
          <p className="font-medium">No branches yet</p>
          {canManage && (
            <p className="text-zinc-600 dark:text-zinc-300">
              Create a branch to organize your versions
            </p>
          )}
        </div>
      ) : (
        <ul className="mt-4 max-h-96 space-y-1 overflow-y-auto" aria-label="Branches">
          {branches.map((branch) =>
            renamingId === branch.id ? (
              <RenameRow
                key={branch.id}
                projectId={projectId}
                branch={branch}
                onDone={() => setRenamingId(null)}
              />
            ) : (
              <li
                key={branch.id}
                data-branch={branch.name}
                className={`flex items-center gap-1 rounded-md pr-1 ${
                  branch.id === props.selectedId
                    ? 'bg-indigo-50 ring-1 ring-indigo-300 dark:bg-indigo-950 dark:ring-indigo-800'
                    : 'hover:bg-zinc-50 dark:hover:bg-zinc-800'
                }`}
              >
                <button
                  type="button"
                  aria-pressed={branch.id === props.selectedId}
                  onClick={() => props.onSelect(branch.id)}
                  className="flex min-w-0 flex-1 flex-col items-start rounded-md px-3 py-2 text-left focus-visible:outline-2 focus-visible:outline-indigo-500"
                >
                  <span className="flex max-w-full items-center gap-2">
                    <span className="truncate font-medium">{branch.name}</span>
                    {branch.is_default && <Badge tone="indigo">Default</Badge>}
                  </span>
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    {branch.versions.length} {branch.versions.length === 1 ? 'version' : 'versions'}
                  </span>
                </button>
                {canUpload && (
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={`Upload new version to ${branch.name}`}
                    title="Upload new version"
                    onClick={() => props.onUpload(branch)}
                  >
                    <Icon path="M12 16V4m0 0-4 4m4-4 4 4M4 20h16" />
                  </button>
                )}
                {canManage && !branch.is_default && (
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={`Set ${branch.name} as default`}
                    title="Set as default"
                    disabled={setDefault.isPending}
                    onClick={() => setDefault.mutate(branch.id)}
                  >
                    <Icon path="m12 3 2.7 5.5 6 .9-4.35 4.2 1 6L12 16.8 6.6 19.6l1-6L3.3 9.4l6-.9z" />
                  </button>
                )}
                {canManage && (
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={`Rename ${branch.name}`}
                    title="Rename"
                    onClick={() => setRenamingId(branch.id)}
                  >
                    <Icon path="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
                  </button>
                )}
                {canManage && !branch.is_default && (
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={`Delete ${branch.name}`}
                    title="Delete"
                    onClick={() => setDeleting(branch)}
                  >
                    <Icon path="M4 7h16M9 7V4h6v3m-8 0 1 13h8l1-13" />
                  </button>
                )}
              </li>
            ),
          )}
        </ul>
      )}

      {deleting && (
        <DeleteBranchModal
          projectId={projectId}
          branch={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            props.onDeleted(deleting.id);
            setDeleting(null);
          }}
        />
      )}
    </section>
  );
}

function RenameRow({
  projectId,
  branch,
  onDone,
}: {
  projectId: string;
  branch: BranchWithVersions;
  onDone: () => void;
}) {
  const rename = useRenameBranch(projectId);
  const [name, setName] = useState(branch.name);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    // An empty or whitespace-only name is ignored: nothing is sent.
    if (!trimmed || trimmed === branch.name) return onDone();
    rename.mutate({ branchId: branch.id, name: trimmed }, { onSuccess: onDone });
  }

  return (
    <li className="rounded-md bg-zinc-50 p-2 dark:bg-zinc-800">
      <form onSubmit={submit} className="flex items-center gap-1">
        <input
          value={name}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onDone();
          }}
          aria-label={`New name for ${branch.name}`}
          // The field appears because the user asked to rename; it should take the focus.
          autoFocus
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900"
        />
        <button
          type="submit"
          className={iconButton}
          aria-label="Confirm rename"
          disabled={rename.isPending}
        >
          <Icon path="m5 12 5 5L20 7" />
        </button>
        <button type="button" className={iconButton} aria-label="Cancel rename" onClick={onDone}>
          <Icon path="M6 6l12 12M18 6 6 18" />
        </button>
      </form>
      {rename.isError && (
        <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-400">
          {errorMessage(rename.error, 'Failed to rename the branch.')}
        </p>
      )}
    </li>
  );
}

function DeleteBranchModal({
  projectId,
  branch,
  onClose,
  onDeleted,
}: {
  projectId: string;
  branch: BranchWithVersions;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteBranch(projectId);
  return (
    <ConfirmDeleteModal
      title="Delete Branch"
      description={
        <>
          Delete <strong>{branch.name}</strong> and its {branch.versions.length}{' '}
          {branch.versions.length === 1 ? 'version' : 'versions'}? This cannot be undone.
        </>
      }
      confirmLabel="Delete Branch"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.isError ? errorMessage(remove.error, 'Failed to delete the branch.') : null}
      onConfirm={() => remove.mutate(branch.id, { onSuccess: onDeleted })}
      onClose={onClose}
    />
  );
}

export function Icon({ path }: { path: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}
