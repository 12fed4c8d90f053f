import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { CollectionSummary } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate, pluralize } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { RoleBadge } from '../members/role-badge';
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
      ) : (
        <Collections collections={collections.data} />
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

/**
 * The caller's own collections first, then the ones others own that they are a member of
 * ('Shared with you', each with the caller's role there; hidden while there are none).
 */
function Collections({ collections }: { collections: CollectionSummary[] }) {
  const sharedHeading = useId();
  const own = collections.filter((collection) => collection.role === 'owner');
  const shared = collections.filter((collection) => collection.role !== 'owner');

  if (collections.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
        No collections yet
      </p>
    );
  }
  return (
    <>
      {own.length > 0 && <CollectionList label="Your collections" collections={own} />}
      {shared.length > 0 && (
        <section aria-labelledby={sharedHeading} className="space-y-4">
          <h2 id={sharedHeading} className="text-xl font-semibold text-zinc-900 dark:text-white">
            Shared with you
          </h2>
          <CollectionList labelledBy={sharedHeading} collections={shared} showRole />
        </section>
      )}
    </>
  );
}

function CollectionList({
  collections,
  label,
  labelledBy,
  showRole = false,
}: {
  collections: CollectionSummary[];
  label?: string;
  labelledBy?: string;
  /** Shows the caller's role in each (for collections others own). */
  showRole?: boolean;
}) {
  return (
    <ul
      aria-label={label}
      aria-labelledby={labelledBy}
      className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-950"
    >
      {collections.map((collection) => (
        <li key={collection.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
          <CollectionCoverImage
            url={collection.cover_url}
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
            {showRole && (
              <span className="ml-2 align-middle">
                <RoleBadge role={collection.role} />
              </span>
            )}
            {collection.description && (
              <p className="truncate text-sm text-zinc-600 dark:text-zinc-300">
                {collection.description}
              </p>
            )}
          </div>
          <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-300">
            {pluralize(collection.item_count, 'item', 'items')} ·{' '}
            {formatTime(collection.total_duration)}
          </span>
          <span className="text-sm text-zinc-600 dark:text-zinc-300">
            Updated{' '}
            <time dateTime={collection.updated_at}>{formatDate(collection.updated_at)}</time>
          </span>
        </li>
      ))}
    </ul>
  );
}
