import { z } from 'zod';
import { REVIEW_MESSAGES, REVIEW_STATUSES } from './review-statuses';

export * from './review-statuses';

/**
 * Reviewing a version: its review status (who set it, when, with the history kept), range
 * comments, and comparing two versions of a project.
 */
export const reviewStatusSchema = z.enum(REVIEW_STATUSES);

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
  /** The blind test's name when its 'Mark the winner Approved' made the change. */
  from_blind_test: z.string().nullable(),
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
