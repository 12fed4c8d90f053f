import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_MESSAGES,
  SHARE_MESSAGES,
  type CollectionLink,
  type CreateCollectionLinkBody,
  type SharedCollection,
  type SharedCollectionItem,
} from '@takes/contract';
import { hashPassword, verifyPassword } from '../../auth/password-hash';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type {
  CollectionLinkReceiptsTable,
  CollectionLinksTable,
  CollectionsTable,
  VersionsTable,
} from '../../db/schema';
import { Gone, NotFound, RateLimited, Unauthenticated } from '../../errors';
import { linkAudioOf, newShareHash, type LinkAudio } from '../sharing/sharing.service';
import type { CollectionLinksRepo, ReceiptEvent } from './collection-links.repo';
import type { CollectionsRepo, ResolvedItemRow } from './collections.repo';

export interface CollectionLinksDeps {
  collections: CollectionsRepo;
  links: CollectionLinksRepo;
  versions: { findById(versionId: string): Promise<VersionsTable | undefined> };
  clock: Clock;
  limiter: RateLimiter;
  /** The server secret: unlock cookies are HMACs with it. */
  secret: string;
  /** Mark unlock cookies Secure (the public URL is https). */
  secureCookies: boolean;
}

/** A valid link (not revoked, not expired) with its collection. */
export interface OpenedCollectionLink {
  link: CollectionLinksTable;
  collection: CollectionsTable;
}

const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';
/** How long an unlock cookie lasts in the browser (the link's own checks still apply). */
const UNLOCK_COOKIE_SECONDS = 30 * 24 * 60 * 60;

/** The name of a link's unlock cookie: one per link. */
export function unlockCookieName(linkId: string): string {
  return `takes_cl_${linkId.replace(/[^A-Za-z0-9]/g, '')}`;
}

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
    await this.owned(userId, collectionId);
    const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
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
    }));
    await this.deps.links.insertAll(rows);
    return { links: rows.map((row) => toLink(row, [])) };
  }

  async list(userId: string, collectionId: string): Promise<{ links: CollectionLink[] }> {
    await this.owned(userId, collectionId);
    const rows = await this.deps.links.listByCollection(collectionId);
    const receipts = await this.deps.links.receipts(rows.map((row) => row.id));
    return {
      links: rows.map((row) =>
        toLink(
          row,
          receipts.filter((receipt) => receipt.link_id === row.id),
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
    const { link } = opened;
    if (link.password_hash !== null) {
      const sent = readCookie(cookies, unlockCookieName(link.id));
      if (sent === undefined || !sameText(sent, this.unlockToken(link)))
        throw new Unauthenticated(COLLECTION_LINK_MESSAGES.needsPassword);
    }
    return opened;
  }

  /** The collection as the link shows it: only items its owner may read now, processed. */
  async page({ link, collection }: OpenedCollectionLink): Promise<SharedCollection> {
    const items = await this.playable(collection);
    return {
      name: collection.name,
      description: collection.description,
      items: items.map((item, position) => toSharedItem(link, item, position)),
    };
  }

  /** The audio of one item of the link's collection, if its owner may read it now (404 else). */
  async itemAudio(
    { link, collection }: OpenedCollectionLink,
    itemId: string,
    quality: 'original' | 'high' | 'standard',
  ): Promise<LinkAudio> {
    const item = (await this.playable(collection)).find((row) => row.id === itemId);
    const version = item?.resolved_id
      ? await this.deps.versions.findById(item.resolved_id)
      : undefined;
    if (!version) throw new NotFound(COLLECTION_LINK_MESSAGES.itemNotFound);
    return linkAudioOf(link, version, quality);
  }

  /**
   * Counts one listen event of an item the link shows now (404 for any other): the counts and
   * the time only, nothing about the visitor.
   */
  async countReceipt(
    { link, collection }: OpenedCollectionLink,
    itemId: string,
    event: ReceiptEvent,
  ): Promise<void> {
    const item = (await this.playable(collection)).find((row) => row.id === itemId);
    if (!item) throw new NotFound(COLLECTION_LINK_MESSAGES.itemNotFound);
    await this.deps.links.countReceipt(
      link.id,
      item.id,
      event,
      this.deps.clock.now().toISOString(),
    );
  }

  /**
   * Checks a protected link's password and answers the unlock cookie to set. More than 5 wrong
   * tries per 10 minutes from one address on one link: 429, and while limited even the right
   * password is refused.
   */
  async unlock(hash: string, ip: string, password: string): Promise<string> {
    const { link } = await this.find(hash, ip);
    const rule = AUTH_RATE_RULES.collectionLinkUnlock;
    const subject = `${link.id}:${ip}`;
    if (await this.deps.limiter.isLimited(rule, subject))
      throw new RateLimited(TOO_MANY, await this.deps.limiter.retryAfterSeconds(rule, subject));
    if (link.password_hash === null || !(await verifyPassword(password, link.password_hash))) {
      if (!(await this.deps.limiter.hit(rule, subject)))
        throw new RateLimited(TOO_MANY, await this.deps.limiter.retryAfterSeconds(rule, subject));
      throw new Unauthenticated(COLLECTION_LINK_MESSAGES.wrongPassword);
    }
    const cookie = [
      `${unlockCookieName(link.id)}=${this.unlockToken(link)}`,
      'Path=/',
      `Max-Age=${UNLOCK_COOKIE_SECONDS}`,
      'HttpOnly',
      'SameSite=Lax',
    ];
    if (this.deps.secureCookies) cookie.push('Secure');
    return cookie.join('; ');
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

  /** The owner's items they may read now with a processed version, in order. */
  private async playable(collection: CollectionsTable): Promise<ResolvedItemRow[]> {
    const rows = await this.deps.collections.resolvedItems(collection.owner_id, [collection.id]);
    return rows.filter((row) => row.readable && row.resolved_id !== null && row.project_name);
  }

  /** Stale once the password changes or is removed (the hash has a fresh salt each time). */
  private unlockToken(link: CollectionLinksTable): string {
    return createHmac('sha256', this.deps.secret)
      .update(`collection-link-unlock\0${link.id}\0${link.password_hash ?? ''}`)
      .digest('base64url');
  }

  private async owned(userId: string, collectionId: string): Promise<void> {
    if (!(await this.deps.collections.findOwned(userId, collectionId)))
      throw new NotFound(COLLECTION_MESSAGES.notFound);
  }
}

/** A link as its owner sees it: never the password's hash. */
function toLink(
  row: CollectionLinksTable,
  receipts: CollectionLinkReceiptsTable[],
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
  };
}

function toSharedItem(
  link: CollectionLinksTable,
  row: ResolvedItemRow,
  position: number,
): SharedCollectionItem {
  return {
    id: row.id,
    position,
    kind: row.version_id !== null ? 'version' : 'latest',
    title: row.message || `Version ${row.version_number ?? ''}`.trim(),
    projectName: row.project_name ?? '',
    duration: row.duration,
    downloadEnabled: link.download_enabled === 1,
    streamUrl: `/api/collection-links/${link.hash}/items/${row.id}/stream`,
  };
}

/** One cookie's value from a Cookie header. */
function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
