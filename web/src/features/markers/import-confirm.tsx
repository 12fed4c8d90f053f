import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { pluralize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { markerTime, type ImportPlan } from './import-plan';
import { usePostMarkers } from './markers-api';

interface ImportConfirmProps {
  versionId: string;
  fileName: string;
  plan: ImportPlan;
  /** Cancel, or Esc: nothing (more) is posted. */
  onClose: () => void;
  /** Every comment was posted; `count` of them. */
  onPosted: (count: number) => void;
}

/**
 * What a dropped marker file will post, before it does: each comment's time (or passage) and
 * text, then 'Post N comments' or 'Cancel'. A failure part-way keeps the ones not yet posted.
 */
export function ImportConfirm({
  versionId,
  fileName,
  plan,
  onClose,
  onPosted,
}: ImportConfirmProps) {
  const postMarkers = usePostMarkers(versionId);
  const [remaining, setRemaining] = useState(plan.post);
  const [done, setDone] = useState(0);
  const [total, setTotal] = useState(plan.post.length);
  const [error, setError] = useState<string | null>(null);
  const pending = postMarkers.isPending;

  async function post() {
    setError(null);
    setDone(0);
    setTotal(remaining.length);
    let saved = 0;
    try {
      await postMarkers.mutateAsync({
        markers: remaining,
        onPosted: (count) => {
          saved = count;
          setDone(count);
        },
      });
      onPosted(plan.post.length);
    } catch (failure) {
      setRemaining((left) => left.slice(saved));
      setError(
        `${saved > 0 ? `${pluralize(saved, 'comment was', 'comments were')} posted, then: ` : ''}${errorMessage(failure, 'The comments could not be posted.')}`,
      );
    }
  }

  const count = remaining.length;
  return (
    <Modal
      title="Import markers"
      description={`From ${fileName}: each marker becomes a comment by you at its time.`}
      onClose={pending ? () => undefined : onClose}
      wide
    >
      <ol
        aria-label="Comments to post"
        className="max-h-72 divide-y divide-zinc-200 overflow-y-auto rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {remaining.map((marker, index) => (
          <li key={index} className="flex gap-3 px-3 py-2 text-sm">
            <span className="w-24 shrink-0 font-mono text-xs font-semibold text-indigo-700 tabular-nums dark:text-indigo-300">
              {markerTime(marker)}
            </span>
            <span className="min-w-0 break-words text-zinc-800 dark:text-zinc-200">
              {marker.label}
            </span>
          </li>
        ))}
      </ol>
      {plan.beyond.length > 0 ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">
          {pluralize(plan.beyond.length, 'marker starts', 'markers start')} after the end of this
          version and {plan.beyond.length === 1 ? 'is' : 'are'} left out.
        </p>
      ) : null}
      <p role="status" className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">
        {pending ? `Posted ${done} of ${total}…` : ''}
      </p>
      {error ? (
        <Alert tone="error" className="mt-2">
          {error}
        </Alert>
      ) : null}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose} disabled={pending}>
          Cancel
        </button>
        <button
          type="button"
          className={primaryButton}
          onClick={() => void post()}
          disabled={pending || count === 0}
        >
          {pending ? 'Posting…' : `Post ${pluralize(count, 'comment', 'comments')}`}
        </button>
      </div>
    </Modal>
  );
}
