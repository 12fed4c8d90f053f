import { randomUUID } from 'node:crypto';
import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_MESSAGES,
  SHARE_MESSAGES,
  type CollectionLink,
  type CreateCollectionLinkBody,
  type SharedCollection,
  type SharedCollectionItem,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type {
  CollectionLinkReceiptsTable,
  CollectionLinksTable,
  CollectionsTable,
  BouncesTable,
  VersionsTable,
} from '../../db/schema';
import { Conflict, Forbidden, Gone, NotFound, RateLimited } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import { versionedCoverUrl } from '../../media/cover-image';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import { downloadOf } from '../audio';
import type { LinkPasswords } from '../sharing/link-password';
import { countsThisHour, type Listener } from '../sharing/listen-counts';
import { linkAudioOf, newShareHash, type LinkAudio } from '../sharing/sharing.service';
import { collectionLinkEmail } from './collection-link-email';
import type { CollectionLinksRepo, LinkCommentRow, ReceiptEvent } from './collection-links.repo';
import type { CollectionsRepo, ResolvedItemRow } from './collections.repo';
import { coverOf, itemKind } from './collections.service';

export interface CollectionLinksDeps {
  access: AccessPolicy;
  collections: CollectionsRepo;
  links: CollectionLinksRepo;
  versions: { findById(versionId: string): Promise<VersionsTable | undefined> };
  bounces: { bounceById(bounceId: string): Promise<BouncesTable | undefined> };
  clock: Clock;
  limiter: RateLimiter;
  passwords: LinkPasswords;
  mailer: Mailer;
  /** The web app's address, for the links in emails. */
  publicUrl: string;
  /** A link's first play is recorded (its owner is notified; no project feed shows it). */
  activity: ActivityLog;
}

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

const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';

/**
 * Share links to a collection, made, listed and revoked by the collection's owner only (anyone
 * else's answers 404 'Collection not found'). A password is kept only as a slow hash.
 */
export class CollectionLinksService {
  constructor(private readonly deps: CollectionLinksDeps) {}

  /** One link, or one per recipient, each with its own key and the same settings. */
  async create(
    userId: string,
    collectionId: string,
    body: CreateCollectionLinkBody,
  ): Promise<{ links: CollectionLink[] }> {
    const collection = await this.owned(userId, collectionId);
    if (body.emailRecipients) await this.spendMailBudget(userId, body);
    const passwordHash = await this.deps.passwords.hash(body.password);
    const now = this.deps.clock.now().toISOString();
    const recipients = body.recipients?.length
      ? body.recipients.map((r) => ({ name: r.name, email: r.email ?? null }))
      : [null];
    const rows: CollectionLinksTable[] = recipients.map((recipient) => ({
      id: randomUUID(),
      collection_id: collectionId,
      hash: newShareHash(),
      name: body.name,
      recipient_name: recipient?.name ?? null,
      recipient_email: recipient?.email ?? null,
      expires_at: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
      download_enabled: body.downloadEnabled ? 1 : 0,
      password_hash: passwordHash,
      revoked_at: null,
      created_at: now,
      emailed_at: null,
      first_played_at: null,
    }));
    await this.deps.links.insertAll(rows);
    if (body.emailRecipients) await this.email(userId, collection, rows);
    return { links: rows.map((row) => toLink(row, [], [])) };
  }

  /**
   * Counts the emails a request would send against the owner's mail budget (shared with
   * invitations), all of them before any link is made: past it, 429 and nothing is made.
   */
  private async spendMailBudget(userId: string, body: CreateCollectionLinkBody): Promise<void> {
    const emails = (body.recipients ?? []).filter((recipient) => recipient.email).length;
    if (emails === 0) return;
    const rule = AUTH_RATE_RULES.mailSendUser;
    if (!(await this.deps.limiter.take(rule, userId, emails)))
      throw new RateLimited(
        COLLECTION_LINK_MESSAGES.tooManyEmails,
        await this.deps.limiter.retryAfterSeconds(rule, userId),
      );
  }

  /**
   * Emails each recipient with an address their own link. The links exist already: a failed
   * send leaves that link unmarked (its owner sees it was not emailed and can copy it).
   */
  private async email(
    userId: string,
    collection: CollectionsTable,
    rows: CollectionLinksTable[],
  ): Promise<void> {
    const sender = (await this.deps.links.ownerName(userId)) ?? 'Someone';
    for (const row of rows) {
      if (!row.recipient_email || !row.recipient_name) continue;
      await this.deps.mailer.send(
        collectionLinkEmail({
          to: row.recipient_email,
          recipientName: row.recipient_name,
          sender,
          collectionName: collection.name,
          link: `${this.deps.publicUrl}/share/${row.hash}`,
          expiresAt: row.expires_at,
          hasPassword: row.password_hash !== null,
        }),
      );
      row.emailed_at = this.deps.clock.now().toISOString();
      await this.deps.links.markEmailed(row.id, row.emailed_at);
    }
  }

  async list(userId: string, collectionId: string): Promise<{ links: CollectionLink[] }> {
    await this.owned(userId, collectionId);
    const rows = await this.deps.links.listByCollection(collectionId);
    const ids = rows.map((row) => row.id);
    const [receipts, comments] = await Promise.all([
      this.deps.links.receipts(ids),
      this.deps.links.comments(ids),
    ]);
    return {
      links: rows.map((row) =>
        toLink(
          row,
          receipts.filter((receipt) => receipt.link_id === row.id),
          comments.filter((comment) => comment.link_id === row.id),
        ),
      ),
    };
  }

  async revoke(userId: string, collectionId: string, linkId: string): Promise<void> {
    await this.owned(userId, collectionId);
    const at = this.deps.clock.now().toISOString();
    if (!(await this.deps.links.revoke(collectionId, linkId, at)))
      throw new NotFound(COLLECTION_LINK_MESSAGES.linkNotFound);
  }

  /**
   * Opens a link for a visitor: 404 unknown or revoked, 410 expired, 429 after many wrong keys
   * (counted with version links' misses), and 401 'This link needs a password' while a protected
   * link's unlock cookie is missing or stale (nothing else said). `cookies` is the Cookie header.
   */
  async open(hash: string, ip: string, cookies: string | undefined): Promise<OpenedCollectionLink> {
    const opened = await this.find(hash, ip);
    this.deps.passwords.requireOpen(
      'collection',
      opened.link,
      cookies,
      COLLECTION_LINK_MESSAGES.needsPassword,
    );
    return opened;
  }

  /** The collection as the link shows it: only items its owner may share now, processed. */
  async page({ link, collection }: OpenedCollectionLink): Promise<SharedCollection> {
    const items = await this.playable(collection);
    return {
      name: collection.name,
      description: collection.description,
      coverUrl: collection.cover_key
        ? versionedCoverUrl(`/api/collection-links/${link.hash}/cover`, collection.cover_key)
        : null,
      recipientName: link.recipient_name,
      downloadEnabled: link.download_enabled === 1,
      items: items.map((item, position) => toSharedItem(link, item, position)),
    };
  }

  /** The cover of the link's collection (404 'This collection has no cover' without one). */
  cover({ collection }: OpenedCollectionLink): { key: string; contentType: string } {
    return coverOf(collection);
  }

  /** The audio of one item of the link's collection, if its owner may share it now (404 else). */
  async itemAudio(
    opened: OpenedCollectionLink,
    itemId: string,
    quality: 'original' | 'high' | 'standard',
  ): Promise<LinkAudio> {
    const { audio } = await this.item(opened, itemId);
    return linkAudioOf(opened.link, audio, quality);
  }

  /**
   * The original file of an item for a link that allows downloads (403 otherwise), counted in
   * the link's receipts as a download (once per listener and address an hour).
   */
  async itemDownload(
    opened: OpenedCollectionLink,
    itemId: string,
    listener: Listener,
  ): Promise<ReturnType<typeof downloadOf>> {
    if (opened.link.download_enabled !== 1) throw new Forbidden(SHARE_MESSAGES.downloadNotAllowed);
    const { item, audio } = await this.item(opened, itemId);
    const download = downloadOf(audio, sourceName(item));
    await this.count(opened.link, item.id, 'download', listener);
    return download;
  }

  /**
   * Every item the link shows now whose original can be downloaded, in order, each with its
   * title as the page shows it ('Download all'). 403 when the link does not allow downloads.
   */
  async downloads(opened: OpenedCollectionLink): Promise<LinkDownload[]> {
    if (opened.link.download_enabled !== 1) throw new Forbidden(SHARE_MESSAGES.downloadNotAllowed);
    const out: LinkDownload[] = [];
    for (const item of await this.playable(opened.collection)) {
      const audio = await this.audioOf(item);
      if (!audio?.original_key) continue;
      out.push({
        itemId: item.id,
        title: itemTitle(item),
        download: downloadOf(audio, sourceName(item)),
        createdAt: audio.created_at,
      });
    }
    return out;
  }

  /**
   * One download receipt for each of these items the link still shows (a zip of them went),
   * each once per listener and address an hour (an item's own download included).
   */
  async countDownloads(
    opened: OpenedCollectionLink,
    itemIds: readonly string[],
    listener: Listener,
  ): Promise<void> {
    const shown = new Set((await this.playable(opened.collection)).map((item) => item.id));
    for (const itemId of itemIds)
      if (shown.has(itemId)) await this.count(opened.link, itemId, 'download', listener);
  }

  /** An item the link shows now, with what it plays (404 for any other). */
  async item({ collection }: OpenedCollectionLink, itemId: string): Promise<OpenedItem> {
    const item = (await this.playable(collection)).find((row) => row.id === itemId);
    const audio = item ? await this.audioOf(item) : undefined;
    if (!item || !audio) throw new NotFound(COLLECTION_LINK_MESSAGES.itemNotFound);
    return { item, audio, versionId: item.bounce ? null : audio.id };
  }

  /**
   * An item the link shows now with the version its comments go on: 404 for any other item,
   * 409 'A bounce takes no comments.' for a bounce.
   */
  async commentable(
    opened: OpenedCollectionLink,
    itemId: string,
  ): Promise<{ item: ResolvedItemRow; versionId: string }> {
    const { item, versionId } = await this.item(opened, itemId);
    if (versionId === null) throw new Conflict(COLLECTION_LINK_MESSAGES.noComments);
    return { item, versionId };
  }

  /** The stored audio an item plays now: its resolved version's, or its bounce's. */
  private async audioOf(item: ResolvedItemRow): Promise<ItemAudio | undefined> {
    if (item.bounce) {
      const bounce = await this.deps.bounces.bounceById(item.bounce.id);
      return (
        bounce && { ...bounce, original_name: bounce.filename, original_size: bounce.original_size }
      );
    }
    return item.resolved_id ? this.deps.versions.findById(item.resolved_id) : undefined;
  }

  /**
   * Counts one listen event of an item the link shows now (404 for any other), once per
   * listener and address an hour: the counts and the time only, nothing about the visitor is
   * kept. The link's first play notes itself whether or not it is counted.
   */
  async countReceipt(
    { link, collection }: OpenedCollectionLink,
    itemId: string,
    event: ReceiptEvent,
    listener: Listener,
  ): Promise<void> {
    const item = (await this.playable(collection)).find((row) => row.id === itemId);
    if (!item) throw new NotFound(COLLECTION_LINK_MESSAGES.itemNotFound);
    if (event !== 'play') return this.count(link, item.id, event, listener);
    const counted = await this.countsThisHour(link, item.id, event, listener);
    if (!counted && link.first_played_at !== null) return;
    const at = this.deps.clock.now().toISOString();
    await this.deps.links.transaction(async (trx) => {
      if (counted) await this.deps.links.countReceipt(link.id, item.id, event, at, trx);
      // (A playable item always has its project, or its repository for a bounce.)
      const place = item.bounce
        ? { repoId: item.bounce.repo_id }
        : item.project_id
          ? { projectId: item.project_id }
          : undefined;
      if (!place || !(await this.deps.links.markFirstPlayed(link.id, at, trx))) return;
      // Only the collection's owner hears of it: the feeds leave this kind out.
      await this.deps.activity.record(trx, {
        kind: 'collection_link.first_played',
        ...place,
        actor: { visitorName: link.recipient_name ?? 'A listener' },
        targetId: link.id,
        data: {
          collection_id: collection.id,
          collection_name: collection.name,
          link_name: link.name,
          recipient_name: link.recipient_name,
          owner_id: collection.owner_id,
        },
      });
    });
  }

  private async count(
    link: CollectionLinksTable,
    itemId: string,
    event: ReceiptEvent,
    listener: Listener,
  ): Promise<void> {
    if (!(await this.countsThisHour(link, itemId, event, listener))) return;
    await this.deps.links.countReceipt(link.id, itemId, event, this.deps.clock.now().toISOString());
  }

  /** Whether this listener's event is the first of the hour (`sharing/listen-counts.ts`). */
  private countsThisHour(
    link: CollectionLinksTable,
    itemId: string,
    event: ReceiptEvent,
    listener: Listener,
  ): Promise<boolean> {
    return countsThisHour(this.deps.limiter, { linkId: link.id, itemId, event }, listener);
  }

  /**
   * Checks a protected link's password and answers the unlock cookie to set (5 wrong tries per
   * 10 minutes per link and address, then 429).
   */
  async unlock(hash: string, ip: string, password: string): Promise<string> {
    const { link } = await this.find(hash, ip);
    return this.deps.passwords.unlock(
      'collection',
      link,
      ip,
      password,
      COLLECTION_LINK_MESSAGES.wrongPassword,
    );
  }

  /** Whether a key is a live collection link's (a version link's lookup asks on a miss). */
  async isLiveKey(hash: string): Promise<boolean> {
    const found = /^[A-Za-z0-9]+$/.test(hash) ? await this.deps.links.findByHash(hash) : undefined;
    return found !== undefined && found.link.revoked_at === null;
  }

  private async find(hash: string, ip: string): Promise<OpenedCollectionLink> {
    if (await this.deps.limiter.isLimited(AUTH_RATE_RULES.linkMissIp, ip))
      throw new RateLimited(TOO_MANY);
    const found = /^[A-Za-z0-9]+$/.test(hash) ? await this.deps.links.findByHash(hash) : undefined;
    if (!found || found.link.revoked_at !== null) {
      await this.deps.limiter.hit(AUTH_RATE_RULES.linkMissIp, ip);
      throw new NotFound(SHARE_MESSAGES.linkNotFound);
    }
    if (found.link.expires_at && found.link.expires_at <= this.deps.clock.now().toISOString())
      throw new Gone(SHARE_MESSAGES.linkExpired);
    return found;
  }

  /**
   * The owner's items they may share now (`share`, Editor and up, on the item's project or
   * repository: a Viewer's or Commenter's takes never go out through their link) with a version
   * (or a bounce) to play, in order.
   */
  private async playable(collection: CollectionsTable): Promise<ResolvedItemRow[]> {
    const rows = await this.deps.collections.resolvedItems(collection.owner_id, [collection.id]);
    return rows.filter(
      (row) =>
        row.readable &&
        row.shareable &&
        (row.bounce !== null || (row.resolved_id !== null && row.project_name)),
    );
  }

  /** The collection, when the caller may share it (its owner: see ACTIONS.shareCollection). */
  private async owned(userId: string, collectionId: string): Promise<CollectionsTable> {
    await this.deps.access.collection(userId, collectionId, 'shareCollection');
    const collection = await this.deps.collections.find(collectionId);
    if (!collection) throw new NotFound(COLLECTION_MESSAGES.notFound);
    return collection;
  }
}

/** A link as its owner sees it: never the password's hash. */
function toLink(
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
    expiresAt: row.expires_at,
    downloadEnabled: row.download_enabled === 1,
    hasPassword: row.password_hash !== null,
    revoked: row.revoked_at !== null,
    createdAt: row.created_at,
    receipts: receipts.map((receipt) => ({
      itemId: receipt.item_id,
      playsStarted: Number(receipt.plays_started),
      plays30s: Number(receipt.plays_30s),
      plays90: Number(receipt.plays_90),
      downloads: Number(receipt.downloads),
      lastActivityAt: receipt.last_activity_at,
    })),
    emailed: row.emailed_at !== null,
    comments: comments.map((comment) => ({
      id: comment.id,
      itemId: comment.item_id,
      author:
        comment.visitor_name ??
        (comment.display_name?.trim() || comment.user_name?.trim() || 'Unknown User'),
      content: comment.content,
      timestamp: comment.timestamp_seconds,
      createdAt: comment.created_at,
    })),
  };
}

/** An item's title as a link shows it: a bounce's title, a version's message, else its number. */
function itemTitle(row: ResolvedItemRow): string {
  if (row.bounce) return row.bounce.title;
  return row.message || `Version ${row.version_number ?? ''}`.trim();
}

/** Where an item comes from: its project's name, or its repository's for a bounce. */
function sourceName(row: ResolvedItemRow): string {
  return row.bounce?.repo_name ?? row.project_name ?? '';
}

function toSharedItem(
  link: CollectionLinksTable,
  row: ResolvedItemRow,
  position: number,
): SharedCollectionItem {
  return {
    id: row.id,
    position,
    kind: itemKind(row),
    title: itemTitle(row),
    projectName: sourceName(row),
    commentable: row.bounce === null,
    duration: row.duration,
    downloadEnabled: link.download_enabled === 1,
    streamUrl: `/api/collection-links/${link.hash}/items/${row.id}/stream`,
    downloadUrl:
      link.download_enabled === 1
        ? `/api/collection-links/${link.hash}/items/${row.id}/download`
        : null,
  };
}
