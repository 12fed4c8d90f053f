import type { CollectionLink, SharedCollectionItem } from '@takes/contract';
import type { CollectionLinkReceiptsTable, CollectionLinksTable } from '../../db/schema';
import { listenerName, UNKNOWN_PERSON } from '../people';
import type { LinkCommentRow } from './collection-links.repo';
import type { ResolvedItemRow } from './collections.repo';
import { itemKind } from './collections.service';

// How a collection link and what it shows look in the API.

/** A link as its owner sees it: never the password's hash. */
export function toLink(
  row: CollectionLinksTable,
  receipts: CollectionLinkReceiptsTable[],
  comments: LinkCommentRow[],
): CollectionLink {
  return {
    id: row.id,
    key: row.hash,
    url: `/share/${row.hash}`,
    name: row.name,
    recipient:
      row.recipient_name === null ? null : { name: row.recipient_name, email: row.recipient_email },
    expires_at: row.expires_at,
    download_enabled: row.download_enabled === 1,
    has_password: row.password_hash !== null,
    revoked: row.revoked_at !== null,
    created_at: row.created_at,
    receipts: receipts.map((receipt) => ({
      item_id: receipt.item_id,
      plays_started: Number(receipt.plays_started),
      plays_30s: Number(receipt.plays_30s),
      plays_90: Number(receipt.plays_90),
      downloads: Number(receipt.downloads),
      last_activity_at: receipt.last_activity_at,
    })),
    emailed: row.emailed_at !== null,
    comments: comments.map((comment) => ({
      id: comment.id,
      item_id: comment.item_id,
      author: comment.visitor_name ?? listenerName(comment) ?? UNKNOWN_PERSON,
      content: comment.content,
      timestamp: comment.timestamp_seconds,
      created_at: comment.created_at,
    })),
  };
}

/** An item's title as a link shows it: a bounce's title, a version's message, else its number. */
export function itemTitle(row: ResolvedItemRow): string {
  if (row.bounce) return row.bounce.title;
  return row.message || `Version ${row.version_number ?? ''}`.trim();
}

/** Where an item comes from: its project's name, or its repository's for a bounce. */
export function sourceName(row: ResolvedItemRow): string {
  return row.bounce?.repo_name ?? row.project_name ?? '';
}

export function toSharedItem(
  link: CollectionLinksTable,
  row: ResolvedItemRow,
  position: number,
): SharedCollectionItem {
  return {
    id: row.id,
    position,
    kind: itemKind(row),
    title: itemTitle(row),
    project_name: sourceName(row),
    commentable: row.bounce === null,
    duration: row.duration,
    download_enabled: link.download_enabled === 1,
    stream_url: `/api/collection-links/${link.hash}/items/${row.id}/stream`,
    download_url:
      link.download_enabled === 1
        ? `/api/collection-links/${link.hash}/items/${row.id}/download`
        : null,
  };
}
