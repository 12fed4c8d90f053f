import { z } from 'zod';

/**
 * Reviewing a version: its review status (who set it, when, with the history kept), range
 * comments, and comparing two versions of a project.
 */
export const REVIEW_STATUSES = ['in_review', 'changes_requested', 'approved'] as const;
export const reviewStatusSchema = z.enum(REVIEW_STATUSES);
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;

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

/** One change of a version's review status. */
export const reviewEventSchema = z.object({
  id: z.string(),
  version_id: z.string(),
  status: reviewStatusSchema,
  /** A member's display name, or the visitor's given name. */
  author: z.string(),
  user_id: z.string().nullable(),
  visitor_name: z.string().nullable(),
  /** Set when a share-link visitor made the change (members only see it). */
  through_link: z.boolean(),
  created_at: z.string(),
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;

/** A version's review state: the status and its latest change (none while never changed). */
export const reviewStateSchema = z.object({
  status: reviewStatusSchema,
  changed_at: z.string().nullable(),
  changed_by: z.string().nullable(),
});
export type ReviewState = z.infer<typeof reviewStateSchema>;

/** The members' view: the state with every change, newest first. */
export const versionReviewSchema = reviewStateSchema.extend({
  history: z.array(reviewEventSchema),
});
export type VersionReview = z.infer<typeof versionReviewSchema>;

export const reviewStatusField = z.enum(REVIEW_STATUSES, { error: REVIEW_MESSAGES.statusRequired });

export const setReviewBodySchema = z.object({ status: reviewStatusField });

export const compareQuerySchema = z.object({
  a: z.string({ error: REVIEW_MESSAGES.compareVersionRequired }).min(1).max(64),
  b: z.string({ error: REVIEW_MESSAGES.compareVersionRequired }).min(1).max(64),
});
