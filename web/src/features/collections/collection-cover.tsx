import { useRef, useState, type ChangeEvent } from 'react';
import { MAX_COVER_BYTES, REPO_MESSAGES, type Collection } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { useRemoveCollectionCover, useSetCollectionCover } from './collections-api';

const COVER_TYPES = 'image/png,image/jpeg,image/webp';

/** 'Change cover' (a PNG, JPEG or WebP of at most 5 MB) and, with a cover, 'Remove cover'. */
export function CollectionCoverControls({ collection }: { collection: Collection }) {
  const input = useRef<HTMLInputElement>(null);
  const setCover = useSetCollectionCover(collection.id);
  const removeCover = useRemoveCollectionCover(collection.id);
  const [error, setError] = useState<string | null>(null);

  function onChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    if (file.size > MAX_COVER_BYTES) {
      setError(`Cover upload failed: ${REPO_MESSAGES.coverTooLarge}`);
      return;
    }
    setCover.mutate(file, {
      onError: (failure) => setError(`Cover upload failed: ${errorMessage(failure, '')}`),
    });
  }

  const busy = setCover.isPending || removeCover.isPending;
  return (
    <>
      <button
        type="button"
        className={`${secondaryButton} px-3 py-1.5`}
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        {setCover.isPending ? 'Uploading cover…' : 'Change cover'}
      </button>
      <input
        ref={input}
        type="file"
        accept={COVER_TYPES}
        aria-label="Cover image"
        className="hidden"
        onChange={onChosen}
      />
      {collection.cover_url !== null && (
        <button
          type="button"
          className={`${secondaryButton} px-3 py-1.5`}
          disabled={busy}
          onClick={() => {
            setError(null);
            removeCover.mutate(undefined, {
              onError: (failure) => setError(errorMessage(failure, 'Failed to remove the cover')),
            });
          }}
        >
          {removeCover.isPending ? 'Removing cover…' : 'Remove cover'}
        </button>
      )}
      {error !== null && (
        <div className="basis-full">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
    </>
  );
}
