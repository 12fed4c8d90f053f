import type { CollectionLink } from '@takes/contract';
import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { Modal } from '../../ui/modal';
import { useCreateCollectionLinks } from './collection-links-api';
import { CreatedCollectionLinks } from './created-collection-links';
import { ShareCollectionForm } from './share-collection-form';

export interface ShareCollectionDialogProps {
  collectionId: string;
  collectionName: string;
  onClose: () => void;
}

/**
 * 'Share collection': one private link, or one per recipient (each with its own key), with an
 * optional expiry, downloads, a password, and an email to each recipient who has an address.
 */
export function ShareCollectionDialog({
  collectionId,
  collectionName,
  onClose,
}: ShareCollectionDialogProps) {
  const create = useCreateCollectionLinks(collectionId);
  const [created, setCreated] = useState<{ links: CollectionLink[]; emailed: boolean } | null>(
    null,
  );
  const [formKey, setFormKey] = useState(0);

  return (
    <Modal
      title="Share collection"
      description={`Create a private link to “${collectionName}”, or one link for each recipient.`}
      onClose={onClose}
    >
      {created ? (
        <CreatedCollectionLinks
          links={created.links}
          emailRequested={created.emailed}
          onClose={onClose}
          onCreateAnother={() => {
            create.reset();
            setCreated(null);
            setFormKey((key) => key + 1);
          }}
        />
      ) : (
        <ShareCollectionForm
          key={formKey}
          focusOnMount={formKey > 0}
          collectionName={collectionName}
          pending={create.isPending}
          error={create.isError ? errorMessage(create.error, 'Failed to create the link') : null}
          onCancel={onClose}
          onSubmit={(body) =>
            create.mutate(body, {
              onSuccess: (links) => setCreated({ links, emailed: body.email_recipients === true }),
            })
          }
        />
      )}
    </Modal>
  );
}
