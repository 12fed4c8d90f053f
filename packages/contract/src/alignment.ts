import { z } from 'zod';

/**
 * Comments that follow the music: how two versions of a project line up in time. Segments map
 * times of the asked version onto the other one, in seconds; a time in no segment has no
 * counterpart (material removed from, or inserted into, the other version).
 */
export const ALIGNMENT_MESSAGES = {
  otherRequired: 'Choose the version to align with.',
  sameVersion: 'Choose two different versions to align.',
  /** Why an alignment failed, as the job records it. */
  tooLong: 'Versions longer than 30 minutes are not aligned.',
  notProcessed: 'Both versions must finish processing before they can be aligned.',
  undecodable: 'The audio of one of the versions could not be read for alignment.',
  failed: 'The versions could not be aligned.',
} as const;

/** The longest version the alignment job lines up (seconds). */
export const ALIGNMENT_MAX_SECONDS = 30 * 60;

export const alignmentSegmentSchema = z.object({
  from_start: z.number(),
  from_end: z.number(),
  to_start: z.number(),
  to_end: z.number(),
});
export type AlignmentSegmentView = z.infer<typeof alignmentSegmentSchema>;

export const versionAlignmentSchema = z.object({
  /** 'pending' while the job runs (asking started it); 'failed' says why in `error`. */
  status: z.enum(['ready', 'pending', 'failed']),
  /** How sure the match is, 0..1 (null until ready). */
  confidence: z.number().min(0).max(1).nullable(),
  segments: z.array(alignmentSegmentSchema),
  error: z.string().nullable(),
});
export type VersionAlignment = z.infer<typeof versionAlignmentSchema>;

/**
 * What changed between two versions, on the asked one's timeline: where the loudness-matched
 * difference of the aligned audio is above `threshold_db` (relative to the signal), and the
 * material the other version has no counterpart for (`inserted`, level 0).
 */
export const changedRegionSchema = z.object({
  start: z.number(),
  end: z.number(),
  /** The difference's level relative to the signal (dB). */
  level_db: z.number(),
  inserted: z.boolean(),
});
export type ChangedRegionView = z.infer<typeof changedRegionSchema>;

export const versionChangesSchema = z.object({
  status: z.enum(['ready', 'pending', 'failed']),
  threshold_db: z.number().nullable(),
  regions: z.array(changedRegionSchema),
  error: z.string().nullable(),
});
export type VersionChanges = z.infer<typeof versionChangesSchema>;

export const changesQuerySchema = z.object({
  against: z.string({ error: ALIGNMENT_MESSAGES.otherRequired }).min(1).max(64),
});

export const alignmentQuerySchema = z.object({
  to: z.string({ error: ALIGNMENT_MESSAGES.otherRequired }).min(1).max(64),
});

/**
 * Where an earlier version's open comment sits on the asked version: its times are mapped through
 * each version between; 'removed' when its passage is gone (the comment's times are then null).
 * `aligned` is false while an alignment on the way is not ready (or failed): the times are then
 * the old ones, unmapped.
 */
export const carriedSchema = z.object({
  from_version_number: z.number().int(),
  from_timestamp: z.number().nullable(),
  from_end_timestamp: z.number().nullable(),
  status: z.enum(['moved', 'removed']),
  aligned: z.boolean(),
});
export type Carried = z.infer<typeof carriedSchema>;
