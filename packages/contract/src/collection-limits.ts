/**
 * Collections' limits and messages, without schemas (see `roles.ts`): `collections.ts` adds the
 * schemas and re-exports all of this.
 */
/** What the collections API says, in the product's words (server and clients share them). */
export const COLLECTION_MESSAGES = {
  nameRequired: 'Give the collection a name.',
  nameTooLong: 'A collection name can be at most 100 characters.',
  descriptionTooLong: 'A description can be at most 2000 characters.',
  notFound: 'Collection not found',
  itemNotFound: 'Item not found',
  oneTarget: 'Add exactly one version, branch or bounce.',
  duplicateVersion: 'This version is already in the collection.',
  duplicateBranch: 'The latest version of this branch is already in the collection.',
  duplicateBounce: 'This bounce is already in the collection.',
  stale: 'The collection changed; reload and try again',
  duplicateIds: 'Each item may appear only once in the order.',
  noCover: 'This collection has no cover',
  /** On an item of the owner's collection page that their links do not serve. */
  linkNeedsShare: 'You need Editor access to share this',
} as const;

export const COLLECTION_NAME_MAX = 100;
export const COLLECTION_DESCRIPTION_MAX = 2000;
