import type { CollectionItem } from '@takes/contract';

/** What an unavailable item says instead of its title. */
export const UNAVAILABLE_REASONS = {
  no_access: 'No longer available to you',
  not_processed: 'Not processed yet',
} as const;

/**
 * An item's title: a bounce's title (else 'Bounce'); a version's message, else 'Version N'; an
 * unavailable item its reason.
 */
export function itemTitle(item: CollectionItem): string {
  if (item.unavailable) return UNAVAILABLE_REASONS[item.reason];
  if (item.kind === 'bounce') return item.title || 'Bounce';
  return item.message || `Version ${item.version_number}`;
}
