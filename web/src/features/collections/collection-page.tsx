import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { may, type Collection } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate, pluralize } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { PageSpinner } from '../../ui/spinner';
import { Tabs, type TabItem } from '../../ui/tabs';
import { formatTime } from '../player/format-time';
import { MembersButton } from '../members/members-button';
import { RoleBadge } from '../members/role-badge';
import { CollectionCoverControls } from './collection-cover';
import { CollectionFormModal } from './collection-form-modal';
import { PlayAllButton } from './collection-item-play';
import { ItemList } from './collection-item-list';
import { CollectionLinksTab } from './collection-links-tab';
import { useCollection, useDeleteCollection, useUpdateCollection } from './collections-api';
import { CollectionCoverImage } from './cover-image';
import { ShareCollectionDialog } from './share-collection-dialog';

type CollectionTab = 'items' | 'links';

const TABS: readonly TabItem<CollectionTab>[] = [
  { id: 'items', label: 'Items' },
  { id: 'links', label: 'Links' },
];

export function CollectionPage() {
  const { id = '' } = useParams();
  const collection = useCollection(id);
  useDocumentTitle(`${collection.data?.name ?? 'Collection'} · Takes`);

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 sm:px-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/collections" className="text-indigo-700 hover:underline dark:text-indigo-300">
          Collections
        </Link>
      </nav>
      {collection.isPending ? (
        <PageSpinner label="Loading collection" />
      ) : collection.isError ? (
        <Alert tone="error">{errorMessage(collection.error, 'Failed to load')}</Alert>
      ) : (
        <CollectionView collection={collection.data} />
      )}
    </div>
  );
}

/**
 * The collection's header, its items and (for the owner) its links. What the caller may change
 * follows their role: an editor adds, removes and reorders items and changes the cover; only the
 * owner renames, deletes and shares it. Every member may play it and see its members.
 */
function CollectionView({ collection }: { collection: Collection }) {
  const navigate = useNavigate();
  const update = useUpdateCollection(collection.id);
  const remove = useDeleteCollection(collection.id);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [tab, setTab] = useState<CollectionTab>('items');
  const { role } = collection;
  const shares = may(role, 'shareCollection');
  const items = <ItemList collection={collection} editable={may(role, 'editItems')} />;

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <CollectionCoverImage
          url={collection.cover_url}
          alt={`Cover of ${collection.name}`}
          testId="collection-cover"
          className="size-32 shrink-0 rounded-lg"
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-3xl font-bold tracking-tight break-words text-zinc-900 dark:text-white">
              {collection.name}
            </h1>
            <RoleBadge role={role} />
          </div>
          {collection.description && (
            <p className="mt-1 text-zinc-600 dark:text-zinc-300">{collection.description}</p>
          )}
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            {pluralize(collection.items.length, 'item', 'items')} · Total{' '}
            {formatTime(collection.total_duration)} · Updated {formatDate(collection.updated_at)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <PlayAllButton collection={collection} />
          <MembersButton
            target={{ kind: 'collection', id: collection.id }}
            targetName={collection.name}
          />
          {shares && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => setSharing(true)}
            >
              Share collection
            </button>
          )}
          {may(role, 'rename') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          )}
          {may(role, 'editCover') && <CollectionCoverControls collection={collection} />}
          {may(role, 'delete') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => setDeleting(true)}
            >
              Delete
            </button>
          )}
        </div>
      </div>

      {/* The links are the owner's alone; everybody else sees the items without tabs. */}
      {shares ? (
        <Tabs label="Collection" items={TABS} selected={tab} onSelect={setTab}>
          {tab === 'items' ? (
            items
          ) : (
            <CollectionLinksTab collection={collection} onShare={() => setSharing(true)} />
          )}
        </Tabs>
      ) : (
        items
      )}

      {shares && sharing && (
        <ShareCollectionDialog
          collectionId={collection.id}
          collectionName={collection.name}
          onClose={() => setSharing(false)}
        />
      )}

      {editing && (
        <CollectionFormModal
          title="Edit collection"
          submitLabel="Save"
          pendingLabel="Saving..."
          initial={{ name: collection.name, description: collection.description }}
          pending={update.isPending}
          error={update.isError ? errorMessage(update.error, 'Failed to save') : null}
          onClose={() => {
            setEditing(false);
            update.reset();
          }}
          onSubmit={(fields) =>
            update.mutate(fields, {
              onSuccess: () => {
                setEditing(false);
                update.reset();
              },
            })
          }
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          title="Delete collection"
          description={`Delete “${collection.name}”? The versions in it stay where they are.`}
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to delete collection') : null}
          onClose={() => {
            setDeleting(false);
            remove.reset();
          }}
          onConfirm={() =>
            remove.mutate(undefined, { onSuccess: () => void navigate('/collections') })
          }
        />
      )}
    </>
  );
}
