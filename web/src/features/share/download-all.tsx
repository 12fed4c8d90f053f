import { COLLECTION_ZIP_MESSAGES } from '@takes/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { linkButton, secondaryButton } from '../../ui/button-styles';
import {
  collectionZipFileUrl,
  useCollectionZip,
  useStartCollectionZip,
} from './collection-share-api';

/**
 * 'Download all' on a collection link that allows downloads: asks the server for a zip of the
 * items' originals, shows how far it has got ('Preparing 2 of 5…'), then starts the download
 * and keeps offering it as a link. Failures are said in an Alert.
 */
export function DownloadAll({ hash, collectionName }: { hash: string; collectionName: string }) {
  const start = useStartCollectionZip(hash);
  const [zipId, setZipId] = useState<string | null>(null);
  const zip = useCollectionZip(hash, zipId);
  const status = zip.data?.status;
  const preparing = start.isPending || status === 'pending' || status === 'building';
  const ready = zipId !== null && status === 'ready';
  const fileUrl = zipId ? collectionZipFileUrl(hash, zipId) : null;
  const labelId = useId();

  // The download starts by itself once, when this zip becomes ready; after, the link stays.
  const linkRef = useRef<HTMLAnchorElement>(null);
  const startedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || !zipId || startedFor.current === zipId) return;
    startedFor.current = zipId;
    linkRef.current?.click();
  }, [ready, zipId]);

  const error = start.isError
    ? errorMessage(start.error, COLLECTION_ZIP_MESSAGES.failed)
    : zip.isError
      ? errorMessage(zip.error, COLLECTION_ZIP_MESSAGES.failed)
      : status === 'failed'
        ? COLLECTION_ZIP_MESSAGES.failed
        : null;

  const done = zip.data?.done ?? 0;
  const total = zip.data?.total ?? 0;
  // The item being copied now (the last one while the zip is finished off).
  const current = Math.min(done + 1, Math.max(total, 1));
  const progressText = total > 0 ? `Preparing ${current} of ${total}…` : 'Preparing…';

  return (
    <section aria-label="Download all" className="mt-4 flex flex-col items-start gap-2">
      <button
        type="button"
        className={secondaryButton}
        disabled={preparing}
        onClick={() =>
          start.mutate(undefined, {
            onSuccess: (started) => {
              setZipId(started.id);
              // The same ready zip handed out again: its download starts again.
              if (started.status === 'ready' && startedFor.current === started.id)
                linkRef.current?.click();
            },
          })
        }
      >
        {status === 'failed' || error ? 'Try again' : 'Download all'}
      </button>
      {preparing ? (
        <div className="w-full max-w-sm">
          <p id={labelId} className="text-sm text-zinc-700 tabular-nums dark:text-zinc-300">
            {progressText}
          </p>
          <div
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={done}
            aria-valuetext={progressText}
            className="mt-1 h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
          >
            <div
              className="h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400"
              style={{ width: `${total > 0 ? Math.round((done * 100) / total) : 0}%` }}
            />
          </div>
        </div>
      ) : null}
      {ready && fileUrl ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Your download has started.{' '}
          <a ref={linkRef} href={fileUrl} download className={linkButton}>
            Download {collectionName}.zip again
          </a>
        </p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}
