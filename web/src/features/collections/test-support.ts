import type { Collection, CollectionItem, CollectionSummary } from '@takes/contract';

/** Test-only builders for collections as the API answers them. */

export function summary(overrides: Partial<CollectionSummary> = {}): CollectionSummary {
  return {
    id: 'c1',
    name: 'Favourites',
    description: null,
    itemCount: 0,
    totalDuration: 0,
    coverUrl: null,
    role: 'owner',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-05T00:00:00.000Z',
    ...overrides,
  };
}

export function available(
  id: string,
  overrides: Partial<
    Extract<CollectionItem, { unavailable: false; kind: 'version' | 'latest' }>
  > = {},
): CollectionItem {
  return {
    id,
    position: 0,
    kind: 'version',
    unavailable: false,
    versionId: `v-${id}`,
    versionNumber: 1,
    message: `Mix ${id}`,
    projectId: 'p1',
    projectName: 'Night Drive',
    branchId: 'b1',
    branchName: 'main',
    duration: 90,
    status: 'completed',
    streamUrl: `/api/versions/v-${id}/stream`,
    linkUnavailableReason: null,
    ...overrides,
  };
}

/** A repository's bounce in a collection, playable by the caller. */
export function bounceItem(
  id: string,
  overrides: Partial<Extract<CollectionItem, { kind: 'bounce'; unavailable: false }>> = {},
): CollectionItem {
  return {
    id,
    position: 0,
    kind: 'bounce',
    unavailable: false,
    bounceId: `bn-${id}`,
    title: `Bounce ${id}`,
    repoId: 'r1',
    repoName: 'Harbour Lights',
    branchName: 'main',
    duration: 75,
    status: 'completed',
    streamUrl: `/api/repos/r1/bounces/bn-${id}/stream`,
    linkUnavailableReason: null,
    ...overrides,
  };
}

export function unavailable(id: string, reason: 'no_access' | 'not_processed'): CollectionItem {
  return {
    id,
    position: 0,
    kind: 'latest',
    unavailable: true,
    reason,
    linkUnavailableReason: null,
  };
}

export function collection(
  items: CollectionItem[],
  overrides: Partial<Collection> = {},
): Collection {
  return {
    ...summary({ itemCount: items.length }),
    items: items.map((item, position) => ({ ...item, position })),
    ...overrides,
  };
}
