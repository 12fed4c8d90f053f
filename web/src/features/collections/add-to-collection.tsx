import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  COLLECTION_MESSAGES,
  may,
  type AddCollectionItemBody,
  type Version,
} from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { Spinner } from '../../ui/spinner';
import { inputClass } from '../../ui/text-field';
import { RoleBadge } from '../members/role-badge';
import { useAddCollectionItem, useCollections, useCreateCollection } from './collections-api';

/**
 * What 'Add to collection' adds: a project version (pinned, or, when its branch is known, a
 * follow of the latest of its branch), or a repository's bounce.
 */
export type CollectionTarget =
  | {
      kind: 'version';
      versionId: string;
      versionNumber: number | null;
      /** The version's branch, for following its latest; null offers the version alone. */
      branch: { id: string; name: string } | null;
    }
  | { kind: 'bounce'; bounceId: string; title: string };

type AddToCollectionProps =
  | { version: Version; branchName: string; target?: never }
  | { target: CollectionTarget; version?: never; branchName?: never };

function targetOf(props: AddToCollectionProps): CollectionTarget {
  if (props.target) return props.target;
  const { version, branchName } = props;
  return {
    kind: 'version',
    versionId: version.id,
    versionNumber: version.version_number,
    branch: { id: version.branch_id, name: branchName },
  };
}

/**
 * 'Add to collection': a version (this version, or the latest of its branch) or a bounce, into
 * one of the caller's collections or a new one.
 */
export function AddToCollectionButton(props: AddToCollectionProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`${secondaryButton} px-3 py-1.5`}
        onClick={() => setOpen(true)}
      >
        Add to collection
      </button>
      {open && <AddToCollectionDialog target={targetOf(props)} onClose={() => setOpen(false)} />}
    </>
  );
}

type Choice = 'version' | 'branch';

function AddToCollectionDialog({
  target,
  onClose,
}: {
  target: CollectionTarget;
  onClose: () => void;
}) {
  const collections = useCollections();
  const add = useAddCollectionItem();
  const create = useCreateCollection();
  const [choice, setChoice] = useState<Choice>('version');
  const [newName, setNewName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  // Only where the caller may add items: their own, and those they are an editor of.
  const editable = collections.data?.filter((collection) => may(collection.role, 'editItems'));

  const body = (): AddCollectionItemBody => {
    if (target.kind === 'bounce') return { bounce_id: target.bounceId };
    if (choice === 'branch' && target.branch) return { branch_id: target.branch.id };
    return { version_id: target.versionId };
  };

  function addTo(collectionId: string, name: string) {
    setAdded(null);
    create.reset();
    add.mutate({ collectionId, body: body() }, { onSuccess: () => setAdded(`Added to ${name}`) });
  }

  function createAndAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = newName.trim();
    if (!name) {
      setNameError(COLLECTION_MESSAGES.nameRequired);
      return;
    }
    setNameError(null);
    setAdded(null);
    add.reset();
    create.mutate(
      { name, description: null },
      {
        onSuccess: (collection) => {
          setNewName('');
          addTo(collection.id, collection.name);
        },
      },
    );
  }

  const failure = add.isError
    ? errorMessage(add.error, 'Failed to add to collection')
    : create.isError
      ? errorMessage(create.error, 'Failed to create collection')
      : null;
  const busy = add.isPending || create.isPending;

  return (
    <Modal title="Add to collection" onClose={onClose}>
      <div className="space-y-4">
        {target.kind === 'bounce' ? (
          <p className="text-sm text-zinc-800 dark:text-zinc-200">
            This bounce: <span className="font-medium">{target.title}</span>
          </p>
        ) : target.branch ? (
          <fieldset>
            <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Add</legend>
            <div className="mt-1 space-y-1 text-sm">
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="collection-target"
                  checked={choice === 'version'}
                  onChange={() => setChoice('version')}
                />
                {versionLabel(target.versionNumber)}
              </label>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="collection-target"
                  checked={choice === 'branch'}
                  onChange={() => setChoice('branch')}
                />
                Follow the latest of this branch
                {target.branch.name ? ` (${target.branch.name})` : ''}
              </label>
            </div>
          </fieldset>
        ) : (
          <p className="text-sm text-zinc-800 dark:text-zinc-200">
            {versionLabel(target.versionNumber)}
          </p>
        )}

        {collections.isPending ? (
          <Spinner label="Loading collections" />
        ) : collections.isError ? (
          <Alert tone="error">{errorMessage(collections.error, 'Failed to load')}</Alert>
        ) : !editable || editable.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-300">No collections yet</p>
        ) : (
          <ul aria-label="Your collections" className="max-h-60 space-y-1 overflow-y-auto">
            {editable.map((collection) => (
              <li key={collection.id} className="flex items-center justify-between gap-2">
                <span className="flex min-w-0 items-center gap-2">
                  <span className="truncate text-sm font-medium">{collection.name}</span>
                  {collection.role !== 'owner' && <RoleBadge role={collection.role} />}
                </span>
                <button
                  type="button"
                  className={`${secondaryButton} px-3 py-1`}
                  disabled={busy}
                  onClick={() => addTo(collection.id, collection.name)}
                  aria-label={`Add to ${collection.name}`}
                >
                  Add
                </button>
              </li>
            ))}
          </ul>
        )}

        <form onSubmit={createAndAdd} noValidate className="flex items-end gap-2">
          <div className="flex-1">
            <label
              htmlFor="new-collection-name"
              className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
            >
              New collection name
            </label>
            <input
              id="new-collection-name"
              value={newName}
              onChange={(event) => setNewName(event.target.value)}
              autoComplete="off"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? 'new-collection-error' : undefined}
              className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700`}
            />
          </div>
          <button type="submit" className={`${primaryButton} px-3`} disabled={busy}>
            New Collection
          </button>
        </form>
        {nameError && (
          <p id="new-collection-error" className="text-sm text-red-600 dark:text-red-400">
            {nameError}
          </p>
        )}

        {added && <Alert tone="success">{added}</Alert>}
        {failure && <Alert tone="error">{failure}</Alert>}

        <div className="flex items-center justify-between gap-2">
          <Link
            to="/collections"
            className="text-sm text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Your collections
          </Link>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </Modal>
  );
}

function versionLabel(versionNumber: number | null): string {
  return versionNumber === null ? 'This version' : `This version (v${versionNumber})`;
}
