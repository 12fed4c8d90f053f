import type { Collection, CollectionLink } from '@takes/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { formatDate, pluralize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { Spinner } from '../../ui/spinner';
import { formatTime } from '../player/format-time';
import { COPIED_MS } from '../share/copy-link-field';
import { itemTitle } from './collection-format';
import { useCollectionLinks, useRevokeCollectionLink } from './collection-links-api';
import { linkAddress } from './created-collection-links';

/** What a receipt or comment names an item that has left the collection by. */
export const REMOVED_ITEM = 'Removed item';

type Receipt = CollectionLink['receipts'][number];
type LinkComment = CollectionLink['comments'][number];

/** The item titles of the collection by item id, and each item's place in it. */
function itemIndex(collection: Collection) {
  const titles = new Map<string, string>();
  const positions = new Map<string, number>();
  collection.items.forEach((item, index) => {
    titles.set(item.id, itemTitle(item));
    positions.set(item.id, index);
  });
  return {
    title: (itemId: string) => titles.get(itemId) ?? REMOVED_ITEM,
    position: (itemId: string) => positions.get(itemId) ?? Number.MAX_SAFE_INTEGER,
  };
}

type ItemIndex = ReturnType<typeof itemIndex>;

function newestFirst(links: CollectionLink[]): CollectionLink[] {
  return [...links].sort((a, b) => b.created_at.localeCompare(a.created_at));
}

function expiryText(expiresAt: string | null, now: number): string {
  if (!expiresAt) return 'Never expires';
  return new Date(expiresAt).getTime() <= now
    ? `Expired ${formatDate(expiresAt)}`
    : `Expires ${formatDate(expiresAt)}`;
}

/** The 'Links' tab of a collection: its share links, what each one's listeners did and said. */
export function CollectionLinksTab({
  collection,
  onShare,
}: {
  collection: Collection;
  /** Opens 'Share collection'. */
  onShare: () => void;
}) {
  const links = useCollectionLinks(collection.id);
  const revoke = useRevokeCollectionLink(collection.id);
  const [revoking, setRevoking] = useState<CollectionLink | null>(null);
  const [copiedId, setCopiedId] = useState<string | null>(null);
  const [copyFailed, setCopyFailed] = useState(false);
  const baseId = useId();
  const headingId = (link: CollectionLink) => `${baseId}-${link.id}`;
  // A revoked link loses its buttons: focus goes to its heading, which now reads 'Revoked'.
  const focusAfterRevoke = useRef<string | null>(null);

  useEffect(() => {
    const target = focusAfterRevoke.current;
    if (!target) return;
    focusAfterRevoke.current = null;
    document.getElementById(target)?.focus();
  });

  useEffect(() => {
    if (!copiedId) return;
    const timer = setTimeout(() => setCopiedId(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copiedId]);

  if (links.isPending) return <Spinner label="Loading links" />;
  if (links.isError) {
    return <Alert tone="error">{errorMessage(links.error, 'Failed to load the links')}</Alert>;
  }

  async function copy(link: CollectionLink) {
    try {
      await navigator.clipboard.writeText(linkAddress(link));
      setCopyFailed(false);
      setCopiedId(link.id);
    } catch (error) {
      console.error('Failed to copy share link:', error);
      setCopyFailed(true);
    }
  }

  const items = itemIndex(collection);
  const now = Date.now();

  return (
    <section aria-labelledby="links-heading" className="space-y-3">
      <h2 id="links-heading" className="sr-only">
        Links
      </h2>
      <p role="status" className="sr-only">
        {copiedId ? 'Link copied to the clipboard' : ''}
      </p>
      {copyFailed && (
        <Alert tone="error">Could not copy the link: select its address and copy it by hand.</Alert>
      )}
      {links.data.length === 0 ? (
        <div className="space-y-4 rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
          <p>No links yet</p>
          <button type="button" className={primaryButton} onClick={onShare}>
            Share collection
          </button>
        </div>
      ) : (
        <ul
          aria-label="Share links"
          className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-950"
        >
          {newestFirst(links.data).map((link) => (
            <LinkRow
              key={link.id}
              headingId={headingId(link)}
              link={link}
              items={items}
              now={now}
              copied={copiedId === link.id}
              onCopy={() => void copy(link)}
              onRevoke={() => setRevoking(link)}
            />
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDeleteModal
          title="Revoke link"
          description={`Revoke “${revoking.name}”${
            revoking.recipient ? ` for ${revoking.recipient.name}` : ''
          }? Anyone with it can no longer listen. This cannot be undone.`}
          confirmLabel="Revoke"
          pendingLabel="Revoking..."
          pending={revoke.isPending}
          error={revoke.isError ? errorMessage(revoke.error, 'Failed to revoke the link') : null}
          onClose={() => {
            setRevoking(null);
            revoke.reset();
          }}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                focusAfterRevoke.current = headingId(revoking);
                setRevoking(null);
                revoke.reset();
              },
            })
          }
        />
      )}
    </section>
  );
}

function LinkRow({
  headingId,
  link,
  items,
  now,
  copied,
  onCopy,
  onRevoke,
}: {
  headingId: string;
  link: CollectionLink;
  items: ItemIndex;
  now: number;
  copied: boolean;
  onCopy: () => void;
  onRevoke: () => void;
}) {
  const url = linkAddress(link);
  const label = link.recipient ? `${link.name} for ${link.recipient.name}` : link.name;

  return (
    <li className="space-y-3 px-4 py-3" data-link={link.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3
            id={headingId}
            tabIndex={-1}
            className="flex flex-wrap items-center gap-2 font-medium break-words text-zinc-900 dark:text-zinc-100"
          >
            {link.name}
            {link.has_password && <Badge tone="indigo">Password</Badge>}
            {link.revoked && <Badge tone="red">Revoked</Badge>}
          </h3>
          {link.recipient && (
            <p className="text-sm break-words text-zinc-700 dark:text-zinc-300">
              For {link.recipient.name}
              {link.recipient.email && ` · ${link.recipient.email}`}
              {link.emailed && ' · Emailed'}
            </p>
          )}
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {expiryText(link.expires_at, now)} · Downloads{' '}
            {link.download_enabled ? 'allowed' : 'off'} · Created {formatDate(link.created_at)}
          </p>
          <p className="font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">{url}</p>
        </div>
        {!link.revoked && (
          <div className="flex gap-2">
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={onCopy}
              aria-label={`${copied ? 'Copied' : 'Copy'} link “${label}”`}
            >
              {copied ? 'Copied!' : 'Copy link'}
            </button>
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={onRevoke}
              aria-label={`Revoke “${label}”`}
            >
              Revoke
            </button>
          </div>
        )}
      </div>
      <Receipts link={link} label={label} items={items} />
      <Comments link={link} label={label} items={items} />
    </li>
  );
}

function receiptParts(receipt: Receipt, downloadEnabled: boolean): string[] {
  return [
    pluralize(receipt.plays_started, 'play', 'plays'),
    `${receipt.plays_30s} played 30 s`,
    `${receipt.plays_90} played to 90 %`,
    ...(downloadEnabled || receipt.downloads > 0
      ? [pluralize(receipt.downloads, 'download', 'downloads')]
      : []),
    `Last activity ${formatDate(receipt.last_activity_at)}`,
  ];
}

function Receipts({
  link,
  label,
  items,
}: {
  link: CollectionLink;
  label: string;
  items: ItemIndex;
}) {
  if (link.receipts.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-300">Not played yet</p>;
  }
  const receipts = [...link.receipts].sort(
    (a, b) => items.position(a.item_id) - items.position(b.item_id),
  );
  return (
    <ul aria-label={`Listens on “${label}”`} className="space-y-1 text-sm">
      {receipts.map((receipt) => (
        <li key={receipt.item_id} className="flex flex-wrap gap-x-2">
          <span className="font-medium text-zinc-900 dark:text-zinc-100">
            {items.title(receipt.item_id)}
          </span>
          <span className="text-zinc-600 dark:text-zinc-300">
            {receiptParts(receipt, link.download_enabled).join(' · ')}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Comments({
  link,
  label,
  items,
}: {
  link: CollectionLink;
  label: string;
  items: ItemIndex;
}) {
  if (link.comments.length === 0) return null;
  return (
    <ul
      aria-label={`Comments on “${label}”`}
      className="space-y-2 border-l-2 border-zinc-200 pl-3 text-sm dark:border-zinc-700"
    >
      {link.comments.map((comment) => (
        <CommentRow key={comment.id} comment={comment} items={items} />
      ))}
    </ul>
  );
}

function CommentRow({ comment, items }: { comment: LinkComment; items: ItemIndex }) {
  return (
    <li>
      <p className="flex flex-wrap gap-x-2 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="font-semibold text-zinc-900 dark:text-zinc-100">{comment.author}</span>
        {comment.item_id && <span>on {items.title(comment.item_id)}</span>}
        {comment.timestamp !== null && (
          <span>
            at <span className="tabular-nums">{formatTime(comment.timestamp)}</span>
          </span>
        )}
        <span>{formatDate(comment.created_at)}</span>
      </p>
      <p className="break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">
        {comment.content}
      </p>
    </li>
  );
}
