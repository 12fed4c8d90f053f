import { z } from 'zod';
import { carriedSchema } from './alignment';
import { reviewStateSchema, reviewStatusField } from './review';
import {
  COMMENT_MAX_LENGTH,
  LINK_PASSWORD_MAX,
  LINK_PASSWORD_MESSAGES,
  LINK_PASSWORD_MIN,
  SHARE_MESSAGES,
  VISITOR_NAME_MAX_LENGTH,
} from './sharing-limits';
import { AUDIO_QUALITIES } from './audio-qualities';

export * from './sharing-limits';

/** A new link password: kept only as a slow hash, never shown again. */
export const linkPasswordSchema = z
  .string()
  .min(LINK_PASSWORD_MIN, LINK_PASSWORD_MESSAGES.tooShort)
  .max(LINK_PASSWORD_MAX, LINK_PASSWORD_MESSAGES.tooLong);

export const unlockLinkBodySchema = z.object({
  password: z.string().min(1).max(LINK_PASSWORD_MAX),
});

export const createLinkBodySchema = z.object({
  name: z.string().trim().max(200).optional(),
  download_enabled: z.boolean().default(false),
  expires_at: z.iso.datetime({ offset: true, error: 'Expiry must be an ISO date-time' }).nullish(),
  /** 'Listeners see each other's comments': off keeps each visitor to their own link's threads. */
  listeners_see_each_other: z.boolean().default(true),
  /** 'Allow approval': the link's listeners may set the version's review status. */
  allow_approval: z.boolean().default(false),
  /** Optional: the share page asks for it before showing anything. */
  password: linkPasswordSchema.optional(),
});

/** What the owner may change on an existing link (one option or more). */
export const updateLinkBodySchema = z
  .object({
    listeners_see_each_other: z.boolean().optional(),
    allow_approval: z.boolean().optional(),
    /** A new password (every earlier unlock ends), or null to remove it. */
    password: linkPasswordSchema.nullable().optional(),
  })
  .refine(
    (body) =>
      body.listeners_see_each_other !== undefined ||
      body.allow_approval !== undefined ||
      body.password !== undefined,
    {
      message: 'Nothing to change: give listeners_see_each_other, allow_approval or password',
    },
  );

export const shareLinkSchema = z.object({
  id: z.string(),
  hash: z.string(),
  url: z.string(),
  name: z.string(),
  version_id: z.string(),
  project_id: z.string(),
  download_enabled: z.boolean(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  listeners_see_each_other: z.boolean(),
  allow_approval: z.boolean(),
  /** Plays by visitors ('Played N times · last played …'). */
  play_count: z.number().int(),
  last_played_at: z.string().nullable(),
  /** The link asks for a password (which is never shown). */
  has_password: z.boolean(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const sharedVersionSchema = z.object({
  link: z.object({
    name: z.string(),
    download_enabled: z.boolean(),
    expires_at: z.string().nullable(),
    /** 'Allow approval': the listener may set the review status. */
    allow_approval: z.boolean(),
  }),
  project: z.object({ name: z.string() }),
  version: z.object({
    id: z.string(),
    version_number: z.number(),
    message: z.string().nullable(),
    created_at: z.string(),
    status: z.string(),
    /**
     * Whether the link's audio route streams now. Without download rights only the standard
     * rendition streams, so this stays false until processing has made it.
     */
    audio_ready: z.boolean(),
    waveform_data: z
      .object({ peaks: z.array(z.number()), duration: z.number().nullable() })
      .nullable(),
    /** 'Listen in': the qualities that stream now (Original only when downloads are allowed). */
    qualities: z.array(z.enum(AUDIO_QUALITIES)),
    review: reviewStateSchema,
  }),
});

export const commentSchema = z.object({
  id: z.string(),
  version_id: z.string(),
  user_id: z.string().nullable(),
  visitor_name: z.string().nullable(),
  author: z.string(),
  avatar_url: z.string().nullable(),
  content: z.string(),
  /** Where the comment points, in seconds; with end_timestamp it is a passage (a range). */
  timestamp: z.number().nullable(),
  end_timestamp: z.number().nullable(),
  /** The version the comment was made on (differs from the asked one with include=previous). */
  version_number: z.number().int(),
  parent_id: z.string().nullable(),
  resolved: z.boolean(),
  created_at: z.string(),
  /** Shown to the team only, never through a share link; replies to it are team-only too. */
  team_only: z.boolean(),
  /**
   * With include=previous: an earlier version's open comment carried onto this one (its times
   * mapped, the old ones here); null for the asked version's own comments.
   */
  carried: carriedSchema.nullable().optional(),
});
export type Comment = z.infer<typeof commentSchema>;

const contentSchema = z
  .string({ error: SHARE_MESSAGES.commentRequired })
  .trim()
  .min(1, SHARE_MESSAGES.commentRequired)
  .max(COMMENT_MAX_LENGTH, SHARE_MESSAGES.commentTooLong);
const timestampSchema = z
  .number()
  .min(0)
  .max(24 * 60 * 60)
  .nullish();

export const ownerCommentBodySchema = z.object({
  content: contentSchema,
  timestamp: timestampSchema,
  /** The end of a range comment: after `timestamp` and within the track. */
  end_timestamp: timestampSchema,
  parent_id: z.string().max(64).nullish(),
  /** 'Team only': never shown through a share link. A reply to a team-only comment is one too. */
  team_only: z.boolean().default(false),
});

/** Visitors write through a link, so they can never write a team-only comment. */
export const visitorCommentBodySchema = ownerCommentBodySchema.omit({ team_only: true }).extend({
  visitor_name: z
    .string({ error: SHARE_MESSAGES.nameRequired })
    .trim()
    .min(1, SHARE_MESSAGES.nameRequired)
    .max(VISITOR_NAME_MAX_LENGTH, SHARE_MESSAGES.nameTooLong)
    .optional(),
});

/** A visitor gives their name (a signed-in listener's account name is used instead). */
export const visitorReviewBodySchema = z.object({
  status: reviewStatusField,
  visitor_name: z
    .string({ error: SHARE_MESSAGES.nameRequired })
    .trim()
    .min(1, SHARE_MESSAGES.nameRequired)
    .max(VISITOR_NAME_MAX_LENGTH, SHARE_MESSAGES.nameTooLong)
    .optional(),
});
