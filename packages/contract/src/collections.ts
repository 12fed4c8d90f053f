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
  .object({ versionId: id.optional(), branchId: id.optional(), bounceId: id.optional() })
  .refine(
    (body) =>
      [body.versionId, body.branchId, body.bounceId].filter((value) => value !== undefined)
        .length === 1,
    { message: COLLECTION_MESSAGES.oneTarget },
  );

export const reorderCollectionBodySchema = z.object({
  itemIds: z
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
  versionId: z.string(),
  versionNumber: z.number().int(),
  message: z.string().nullable(),
  projectId: z.string(),
  projectName: z.string(),
  branchId: z.string(),
  branchName: z.string(),
  /** Seconds; null until known. */
  duration: z.number().nullable(),
  status: z.enum(['processing', 'completed', 'failed']),
  streamUrl: z.string(),
  linkUnavailableReason,
});

/** A bounce the caller may play now (they may read its repository). */
export const availableBounceItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  kind: z.literal('bounce'),
  unavailable: z.literal(false),
  bounceId: z.string(),
  title: z.string(),
  repoId: z.string(),
  repoName: z.string(),
  branchName: z.string(),
  /** Seconds; null until known. */
  duration: z.number().nullable(),
  status: z.enum(['processing', 'completed', 'failed']),
  streamUrl: z.string(),
  linkUnavailableReason,
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
  linkUnavailableReason,
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
  itemCount: z.number().int(),
  /** Seconds: the sum of the durations of the items the caller may play. */
  totalDuration: z.number(),
  /** Same-origin URL of the cover image (it changes when the cover changes), or null. */
  coverUrl: z.string().nullable(),
  /** The caller's role: 'owner' for their own collections, else the one they were invited with. */
  role: roleSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
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
