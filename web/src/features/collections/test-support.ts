import type { Collection, CollectionItem, CollectionSummary } from '@takes/contract';

/** Test-only builders for collections as the API answers them. */

export function summary(overrides: Partial<CollectionSummary> = {}): CollectionSummary {
  return {
    id: 'c1',
    name: 'Favourites',
    description: null,
    item_count: 0,
    total_duration: 0,
    cover_url: null,
    role: 'owner',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-05T00:00:00.000Z',
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
    version_id: `v-${id}`,
    version_number: 1,
    message: `Mix ${id}`,
    project_id: 'p1',
    project_name: 'Night Drive',
    branch_id: 'b1',
    branch_name: 'main',
    duration: 90,
    status: 'completed',
    stream_url: `/api/versions/v-${id}/stream`,
    link_unavailable_reason: null,
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
    bounce_id: `bn-${id}`,
    title: `Bounce ${id}`,
    repo_id: 'r1',
    repo_name: 'Harbour Lights',
    branch_name: 'main',
    duration: 75,
    status: 'completed',
    stream_url: `/api/repos/r1/bounces/bn-${id}/stream`,
    link_unavailable_reason: null,
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
    link_unavailable_reason: null,
  };
}

export function collection(
  items: CollectionItem[],
  overrides: Partial<Collection> = {},
): Collection {
  return {
    ...summary({ item_count: items.length }),
    items: items.map((item, position) => ({ ...item, position })),
    ...overrides,
  };
}
