import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { CollectionSummary } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate, pluralize } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { formatTime } from '../player/format-time';
import { CollectionFormModal } from './collection-form-modal';
import { CollectionCoverImage } from './cover-image';
import { useCollections, useCreateCollection } from './collections-api';

export function CollectionsPage() {
  useDocumentTitle('Collections · Takes');
  const navigate = useNavigate();
  const collections = useCollections();
  const create = useCreateCollection();
  const [creating, setCreating] = useState(false);

  function close() {
    setCreating(false);
    create.reset();
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">
          Collections
        </h1>
        <button type="button" className={primaryButton} onClick={() => setCreating(true)}>
          New Collection
        </button>
      </div>

      {collections.isPending ? (
        <PageSpinner label="Loading collections" />
      ) : collections.isError ? (
        <Alert tone="error">{errorMessage(collections.error, 'Failed to load')}</Alert>
      ) : collections.data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
          No collections yet
        </p>
      ) : (
        <CollectionList collections={collections.data} />
      )}

      {creating && (
        <CollectionFormModal
          title="New Collection"
          submitLabel="Create"
          pendingLabel="Creating..."
          pending={create.isPending}
          error={create.isError ? errorMessage(create.error, 'Failed to create collection') : null}
          onClose={close}
          onSubmit={(fields) =>
            create.mutate(fields, {
              onSuccess: (collection) => {
                close();
                void navigate(`/collections/${collection.id}`);
              },
            })
          }
        />
      )}
    </div>
  );
}

function CollectionList({ collections }: { collections: CollectionSummary[] }) {
  return (
    <ul
      aria-label="Your collections"
      className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-950"
    >
      {collections.map((collection) => (
        <li key={collection.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
          <CollectionCoverImage
            url={collection.coverUrl}
            alt={`Cover of ${collection.name}`}
            className="size-12 shrink-0 rounded"
          />
          <div className="min-w-0 flex-1">
            <Link
              to={`/collections/${collection.id}`}
              className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
            >
              {collection.name}
            </Link>
            {collection.description && (
              <p className="truncate text-sm text-zinc-600 dark:text-zinc-300">
                {collection.description}
              </p>
            )}
          </div>
          <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-300">
            {pluralize(collection.itemCount, 'item', 'items')} ·{' '}
            {formatTime(collection.totalDuration)}
          </span>
          <span className="text-sm text-zinc-600 dark:text-zinc-300">
            Updated <time dateTime={collection.updatedAt}>{formatDate(collection.updatedAt)}</time>
          </span>
        </li>
      ))}
    </ul>
  );
}
