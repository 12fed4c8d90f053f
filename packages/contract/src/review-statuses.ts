/**
 * Review statuses, their words and the review messages, without schemas (see `roles.ts`):
 * `review.ts` adds the schemas and re-exports all of this.
 */
export const REVIEW_STATUSES = ['in_review', 'changes_requested', 'approved'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The UI words of each status. */
export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  in_review: 'In review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
};

/** True peak above this (dBTP) may clip once encoded to MP3/AAC. */
export const TRUE_PEAK_WARNING_DBTP = -1;
export const TRUE_PEAK_WARNING = 'May clip after encoding';

/** Decoding both sides of a compare in the browser: longer lossless originals use the 320k rendition. */
export const COMPARE_LOSSLESS_MAX_SECONDS = 10 * 60;

export const REVIEW_MESSAGES = {
  approvalNotAllowed: 'This link does not allow approval',
  statusRequired: 'Review status must be one of: In review, Changes requested, Approved',
  rangeNeedsStart: 'A range needs a start time',
  rangeEndBeforeStart: 'The end of a range must be after its start',
  rangeBeyondTrack: 'The range must end within the track',
  timeBeyondTrack: 'The time must be within the track',
  compareSameVersion: 'Pick two different versions to compare',
  compareVersionRequired: 'Pick two versions to compare',
} as const;
