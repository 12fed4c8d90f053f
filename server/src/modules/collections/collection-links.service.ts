import { randomUUID } from 'node:crypto';
import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_MESSAGES,
  SHARE_MESSAGES,
  type CollectionLink,
  type CreateCollectionLinkBody,
  type SharedCollection,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type {
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
import { downloadOf, type Quality } from '../audio';
import {
  linkAudioOf,
  newShareHash,
  type LinkAudio,
  type LinkPasswords,
  type Listener,
} from '../sharing';
import { collectionLinkEmail } from './collection-link-email';
import { itemTitle, sourceName, toLink, toSharedItem } from './collection-link.presenter';
import { CollectionLinkReceipts } from './collection-link-receipts';
import type { CollectionLinksRepo, ReceiptEvent } from './collection-links.repo';
import type { CollectionsRepo, ResolvedItemRow } from './collections.repo';
import { coverOf } from './collections.service';
import type { ItemAudio, LinkDownload, OpenedCollectionLink, OpenedItem } from './opened-link';

export type { ItemAudio, LinkDownload, OpenedCollectionLink, OpenedItem } from './opened-link';

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

const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';

/**
 * Share links to a collection, made, listed and revoked by the collection's owner only (anyone
 * else's answers 404 'Collection not found'). A password is kept only as a slow hash.
 */
export class CollectionLinksService {
  private readonly receipts: CollectionLinkReceipts;

  constructor(private readonly deps: CollectionLinksDeps) {
    this.receipts = new CollectionLinkReceipts(deps);
  }

  /** One link, or one per recipient, each with its own key and the same settings. */
  async create(
    userId: string,
    collectionId: string,
    body: CreateCollectionLinkBody,
  ): Promise<{ links: CollectionLink[] }> {
    const collection = await this.owned(userId, collectionId);
    if (body.email_recipients) await this.spendMailBudget(userId, body);
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
      expires_at: body.expires_at ? new Date(body.expires_at).toISOString() : null,
      download_enabled: body.download_enabled ? 1 : 0,
      password_hash: passwordHash,
      revoked_at: null,
      created_at: now,
      emailed_at: null,
      first_played_at: null,
    }));
    await this.deps.links.insertAll(rows);
    if (body.email_recipients) await this.email(userId, collection, rows);
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
      cover_url: collection.cover_key
        ? versionedCoverUrl(`/api/collection-links/${link.hash}/cover`, collection.cover_key)
        : null,
      recipient_name: link.recipient_name,
      download_enabled: link.download_enabled === 1,
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
    quality: Quality,
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
    await this.receipts.download(opened.link, item.id, listener);
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
      if (shown.has(itemId)) await this.receipts.download(opened.link, itemId, listener);
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
   * listener and address an hour (see CollectionLinkReceipts).
   */
  async countReceipt(
    opened: OpenedCollectionLink,
    itemId: string,
    event: ReceiptEvent,
    listener: Listener,
  ): Promise<void> {
    const item = (await this.playable(opened.collection)).find((row) => row.id === itemId);
    if (!item) throw new NotFound(COLLECTION_LINK_MESSAGES.itemNotFound);
    await this.receipts.count(opened, item, event, listener);
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
      throw new NotFound(SHARE_MESSAGES.linkNotFound, { code: 'link_not_found' });
    }
    if (found.link.expires_at && found.link.expires_at <= this.deps.clock.now().toISOString())
      throw new Gone(SHARE_MESSAGES.linkExpired, { code: 'link_expired' });
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
