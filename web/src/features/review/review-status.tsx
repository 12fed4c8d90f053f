import {
  may,
  REVIEW_STATUS_LABELS,
  REVIEW_STATUSES,
  type ReviewStatus,
  type Role,
} from '@takes/contract';
import { useId } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { inputClass } from '../../ui/text-field';
import { useSetVersionReview, useVersionReview } from './review-api';
import { formatDateTime } from '../../lib/format';

const TONES = { in_review: 'indigo', changes_requested: 'amber', approved: 'green' } as const;

/** 'In review', 'Changes requested' or 'Approved', in words (never colour alone). */
export function ReviewStatusBadge({ status }: { status: ReviewStatus }) {
  return (
    <span data-testid="review-status" data-status={status}>
      <Badge tone={TONES[status]}>{REVIEW_STATUS_LABELS[status]}</Badge>
    </span>
  );
}

/**
 * A version's review status for its members: the badge with who set it and when, a 'History'
 * of every change, and for the owner or an Editor the control that sets it.
 */
export function ReviewStatusControl({
  versionId,
  role,
  fallback,
}: {
  versionId: string;
  role: Role;
  /** The status the version row says, shown until the review is read. */
  fallback: ReviewStatus;
}) {
  const review = useVersionReview(versionId);
  const setReview = useSetVersionReview(versionId);
  const selectId = useId();
  const status = review.data?.status ?? fallback;
  const canSet = may(role, 'review');
  return (
    <div className="space-y-2" data-testid="review-status-control">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {canSet ? (
          <>
            <label htmlFor={selectId} className="font-medium">
              Review status
            </label>
            <select
              id={selectId}
              value={status}
              disabled={setReview.isPending}
              onChange={(event) => setReview.mutate(event.target.value as ReviewStatus)}
              className={`${inputClass} w-auto border-zinc-300 py-1 dark:border-zinc-700`}
            >
              {REVIEW_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {REVIEW_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </>
        ) : (
          <ReviewStatusBadge status={status} />
        )}
        {review.data?.changed_by && review.data.changed_at ? (
          <span className="text-zinc-600 dark:text-zinc-300">
            {REVIEW_STATUS_LABELS[status]} by {review.data.changed_by} ·{' '}
            <time dateTime={review.data.changed_at}>{formatDateTime(review.data.changed_at)}</time>
          </span>
        ) : null}
      </div>
      {setReview.error ? (
        <Alert tone="error">
          {errorMessage(setReview.error, 'Failed to set the review status')}
        </Alert>
      ) : null}
      {review.data && review.data.history.length > 0 ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-zinc-700 dark:text-zinc-300">History</summary>
          <ol aria-label="Review history" className="mt-2 space-y-1">
            {review.data.history.map((event) => (
              <li key={event.id} className="flex flex-wrap items-center gap-2">
                <ReviewStatusBadge status={event.status} />
                <span>
                  {event.author}
                  {event.through_link ? ' via share link' : ''}
                </span>
                <time
                  dateTime={event.created_at}
                  className="text-xs text-zinc-600 dark:text-zinc-400"
                >
                  {formatDateTime(event.created_at)}
                </time>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}
