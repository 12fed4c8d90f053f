import { z } from 'zod';
import {
  COLLECTION_DESCRIPTION_MAX,
  COLLECTION_MESSAGES,
  COLLECTION_NAME_MAX,
} from './collection-limits';
import { roleSchema } from './members';

export * from './collection-limits';

const name = z
  .string({ error: COLLECTION_MESSAGES.nameRequired })
  .trim()
  .min(1, COLLECTION_MESSAGES.nameRequired)
  .max(COLLECTION_NAME_MAX, COLLECTION_MESSAGES.nameTooLong);
const description = z
  .string()
  .trim()
  .max(COLLECTION_DESCRIPTION_MAX, COLLECTION_MESSAGES.descriptionTooLong);
const id = z.string().min(1).max(64);

export const createCollectionBodySchema = z.object({
  name,
  description: description.nullish(),
});

export const updateCollectionBodySchema = z.object({
  name: name.optional(),
  description: description.nullable().optional(),
});

/** Exactly one of the three: a version pinned, a branch followed, or a repository's bounce. */
export const addCollectionItemBodySchema = z
  .object({ version_id: id.optional(), branch_id: id.optional(), bounce_id: id.optional() })
  .refine(
    (body) =>
      [body.version_id, body.branch_id, body.bounce_id].filter((value) => value !== undefined)
        .length === 1,
    { message: COLLECTION_MESSAGES.oneTarget },
  );

export const reorderCollectionBodySchema = z.object({
  item_ids: z
    .array(id)
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, {
      message: COLLECTION_MESSAGES.duplicateIds,
    }),
});

/**
 * 'version': a pinned version; 'latest': the newest processed version of a branch; 'bounce': a
 * repository's bounce.
 */
export const collectionItemKindSchema = z.enum(['version', 'latest', 'bounce']);

/**
 * Why the collection's links do not serve an item (its owner may not share its project or
 * repository: 'You need Editor access to share this'), or null. Said to the owner only; null
 * for everyone else.
 */
const linkUnavailableReason = z.string().nullable();

/** An item whose version the caller may play now. */
export const availableCollectionItemSchema = z.object({
  id: z.string(),
  /** 0..n-1 in the collection's order. */
  position: z.number().int(),
  kind: z.enum(['version', 'latest']),
  unavailable: z.literal(false),
  version_id: z.string(),
  version_number: z.number().int(),
  message: z.string().nullable(),
  project_id: z.string(),
  project_name: z.string(),
  branch_id: z.string(),
  branch_name: z.string(),
  /** Seconds; null until known. */
  duration: z.number().nullable(),
  status: z.enum(['processing', 'completed', 'failed']),
  stream_url: z.string(),
  link_unavailable_reason: linkUnavailableReason,
});

/** A bounce the caller may play now (they may read its repository). */
export const availableBounceItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  kind: z.literal('bounce'),
  unavailable: z.literal(false),
  bounce_id: z.string(),
  title: z.string(),
  repo_id: z.string(),
  repo_name: z.string(),
  branch_name: z.string(),
  /** Seconds; null until known. */
  duration: z.number().nullable(),
  status: z.enum(['processing', 'completed', 'failed']),
  stream_url: z.string(),
  link_unavailable_reason: linkUnavailableReason,
});

/**
 * An item with nothing to play for this caller: 'no_access' (they can no longer read its
 * project or repository; nothing of it is shown) or 'not_processed' (its branch has no
 * processed version yet).
 */
export const unavailableCollectionItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  kind: collectionItemKindSchema,
  unavailable: z.literal(true),
  reason: z.enum(['no_access', 'not_processed']),
  link_unavailable_reason: linkUnavailableReason,
});

export const collectionItemSchema = z.union([
  availableCollectionItemSchema,
  availableBounceItemSchema,
  unavailableCollectionItemSchema,
]);

export const collectionSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  item_count: z.number().int(),
  /** Seconds: the sum of the durations of the items the caller may play. */
  total_duration: z.number(),
  /** Same-origin URL of the cover image (it changes when the cover changes), or null. */
  cover_url: z.string().nullable(),
  /** The caller's role: 'owner' for their own collections, else the one they were invited with. */
  role: roleSchema,
  created_at: z.string(),
  updated_at: z.string(),
});

export const collectionSchema = collectionSummarySchema.extend({
  items: z.array(collectionItemSchema),
});

export const collectionsResponseSchema = z.object({
  collections: z.array(collectionSummarySchema),
});

export type CollectionItem = z.infer<typeof collectionItemSchema>;
export type CollectionSummary = z.infer<typeof collectionSummarySchema>;
export type Collection = z.infer<typeof collectionSchema>;
export type CreateCollectionBody = z.infer<typeof createCollectionBodySchema>;
export type UpdateCollectionBody = z.infer<typeof updateCollectionBodySchema>;
export type AddCollectionItemBody = z.infer<typeof addCollectionItemBodySchema>;
