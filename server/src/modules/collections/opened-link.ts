import type { CollectionLinksTable, CollectionsTable, VersionsTable } from '../../db/schema';
import type { downloadOf } from '../audio';
import type { ResolvedItemRow } from './collections.repo';

// What a collection link opens: the link with its collection, each item with what it plays, and
// what 'Download all' zips.

/** A valid link (not revoked, not expired) with its collection. */
export interface OpenedCollectionLink {
  link: CollectionLinksTable;
  collection: CollectionsTable;
}

/** What an item plays: its version's or its bounce's stored audio. */
export type ItemAudio = Pick<
  VersionsTable,
  | 'id'
  | 'renditions'
  | 'original_key'
  | 'original_format'
  | 'original_size'
  | 'original_name'
  | 'status'
  | 'created_at'
>;

/** One item a link shows, with what it plays now and the version comments go on (none for a bounce). */
export interface OpenedItem {
  item: ResolvedItemRow;
  audio: ItemAudio;
  versionId: string | null;
}

/** An item's original as 'Download all' puts it in a zip. */
export interface LinkDownload {
  itemId: string;
  title: string;
  download: ReturnType<typeof downloadOf>;
  /** When its version was made (the file's time inside the zip). */
  createdAt: string;
}
