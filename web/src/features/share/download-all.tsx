import { COLLECTION_ZIP_MESSAGES } from '@takes/contract';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
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
 * and keeps offering it as a link. Failures are said in an Alert. The server gives a zip only
 * while the link serves exactly its takes: the link asks for the zip again before downloading
 * (the same one, or a new one), and a zip said to be out of date (410) is started again once.
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
  // True while this component follows the link itself (a person's click asks the server first).
  const following = useRef(false);
  const follow = useCallback(() => {
    following.current = true;
    try {
      linkRef.current?.click();
    } finally {
      following.current = false;
    }
  }, []);
  useEffect(() => {
    if (!ready || !zipId || startedFor.current === zipId) return;
    startedFor.current = zipId;
    follow();
  }, [ready, zipId, follow]);

  const { mutate } = start;
  const startZip = useCallback(
    () =>
      mutate(undefined, {
        onSuccess: (started) => {
          setZipId(started.id);
          // The same ready zip handed out again: its download starts again.
          if (started.status === 'ready' && startedFor.current === started.id) follow();
        },
      }),
    [mutate, follow],
  );

  // Out of date (an item gone from the link) or expired: a new zip, once for each zip.
  const restartedFor = useRef<string | null>(null);
  const zipGone = zip.error instanceof ApiError && zip.error.status === 410;
  useEffect(() => {
    if (!zipGone || !zipId || restartedFor.current === zipId) return;
    restartedFor.current = zipId;
    startZip();
  }, [zipGone, zipId, startZip]);

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
      <button type="button" className={secondaryButton} disabled={preparing} onClick={startZip}>
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
          <a
            ref={linkRef}
            href={fileUrl}
            download
            className={linkButton}
            onClick={(event) => {
              if (following.current) return;
              // The server says whether this zip still holds what the link serves.
              event.preventDefault();
              startZip();
            }}
          >
            Download {collectionName}.zip again
          </a>
        </p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}
