import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  COLLECTION_ZIP_MESSAGES,
  COLLECTION_ZIP_TTL_HOURS,
  SHARE_MESSAGES,
  type CollectionZip,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { CollectionLinkZipsTable } from '../../db/schema';
import { Conflict, Forbidden, Gone, NotFound, RateLimited } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import {
  buildArchive,
  buildLost,
  expireArchives,
  expiresAfter,
  requireUnexpired,
  type ArchiveBuildContext,
} from '../../jobs/zip-archive-jobs';
import type { ObjectStore } from '../../storage/object-store';
import { safeSegment, UniqueNames } from '../../storage/zip-names';
import type { Listener } from '../sharing';
import { writeZip, type ZipEntry } from '../../storage/zip-writer';
import { buildCollectionZipJob } from './jobs';
import type {
  CollectionLinksService,
  LinkDownload,
  OpenedCollectionLink,
} from './collection-links.service';
import type { CollectionZipsRepo } from './collection-zips.repo';

export interface CollectionZipsDeps {
  repo: CollectionZipsRepo;
  links: CollectionLinksService;
  storage: ObjectStore;
  jobs: JobQueue;
  clock: Clock;
  limiter: RateLimiter;
  /** Folder for the zip while it is written. */
  tmpDir: string;
}

const HOUR_MS = 60 * 60 * 1000;

const ZIP_PREFIX = 'collection-zips/';
export const collectionZipKey = (id: string) => `${ZIP_PREFIX}${id}.zip`;
const idOfKey = (key: string) => key.slice(ZIP_PREFIX.length).replace(/\.zip$/, '');

/** What a zip holds: [item id, stored original's key] pairs, in order. */
type Contents = [string, string][];

const contentsOf = (downloads: LinkDownload[]): Contents =>
  downloads.map((d) => [d.itemId, d.download.key]);

/** The same takes, whatever their order (a reorder changes no file in the zip). */
const sameTakes = (a: Contents, b: Contents): boolean => {
  const keys = new Set(a.map(([itemId, key]) => `${itemId}:${key}`));
  return (
    a.length === b.length && keys.size === a.length && b.every(([i, k]) => keys.has(`${i}:${k}`))
  );
};

/**
 * 'Download all' on a collection link that allows downloads: a zip of the originals of the items
 * the link shows, built by a job into a scratch file, stored as one object and downloadable
 * through the link for a day; a recurring job deletes it after. A zip of the same takes still
 * fresh (or being built) is handed out again; a new build counts against a limit per link and
 * address. A ready zip is given (and said to be ready) only while the link serves exactly its
 * takes now (`CollectionLinksService.downloads`: an item removed, or its project's access lost by
 * the owner, makes it 410 'out of date'). Each item counts one download receipt when the zip is
 * downloaded (not when built: a zip nobody fetched was not a download).
 */
export class CollectionZipsService {
  constructor(private readonly deps: CollectionZipsDeps) {}

  async start(opened: OpenedCollectionLink, ip: string): Promise<CollectionZip> {
    const downloads = await this.deps.links.downloads(opened);
    if (downloads.length === 0) throw new Conflict(COLLECTION_ZIP_MESSAGES.empty);
    const contents = JSON.stringify(contentsOf(downloads));
    const now = this.deps.clock.now();
    const fresh = (await this.deps.repo.live(opened.link.id, now.toISOString())).find(
      (row) =>
        row.items === contents &&
        // One in flight that its worker stopped touching was lost: it is not handed out.
        (row.status === 'ready' || !buildLost(row.updated_at, now)),
    );
    if (fresh) return this.view(opened, fresh);
    const rule = AUTH_RATE_RULES.collectionZipLinkIp;
    const subject = `${opened.link.id}:${ip}`;
    if (!(await this.deps.limiter.hit(rule, subject)))
      throw new RateLimited(
        COLLECTION_ZIP_MESSAGES.tooMany,
        await this.deps.limiter.retryAfterSeconds(rule, subject),
      );
    const row: CollectionLinkZipsTable = {
      id: randomUUID(),
      link_id: opened.link.id,
      status: 'pending',
      done: 0,
      total: downloads.length,
      items: contents,
      object_key: null,
      size: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: expiresAfter(now, COLLECTION_ZIP_TTL_HOURS),
    };
    await this.deps.repo.insert(row);
    await this.deps.jobs.enqueue(buildCollectionZipJob, { zipId: row.id });
    return this.view(opened, row);
  }

  /**
   * A zip of this link (any other's, or none, is not found) with its progress; a ready one the
   * link no longer serves as it is answers 410 'out of date'.
   */
  async get(opened: OpenedCollectionLink, zipId: string): Promise<CollectionZip> {
    const row = await this.ownRow(opened, zipId);
    if (row.status === 'ready') await this.requireCurrent(opened, row);
    return this.view(opened, row);
  }

  /** The stored zip of a ready zip of this link, named after the collection. */
  async file(
    opened: OpenedCollectionLink,
    zipId: string,
  ): Promise<{ key: string; fileName: string; itemIds: string[] }> {
    const row = await this.ownRow(opened, zipId);
    if (row.status === 'failed') throw new Conflict(COLLECTION_ZIP_MESSAGES.failed);
    if (row.status !== 'ready' || !row.object_key)
      throw new Conflict(COLLECTION_ZIP_MESSAGES.notReady);
    const items = await this.requireCurrent(opened, row);
    return {
      key: row.object_key,
      fileName: `${safeSegment(opened.collection.name, 'Takes')}.zip`,
      itemIds: items.map(([itemId]) => itemId),
    };
  }

  /** One download receipt for each item of a zip that was downloaded (per listener an hour). */
  countDownload(
    opened: OpenedCollectionLink,
    itemIds: string[],
    listener: Listener,
  ): Promise<void> {
    return this.deps.links.countDownloads(opened, itemIds, listener);
  }

  /**
   * The job: copies each item's original the link still shows (of those asked for) into a zip
   * in a scratch file, `done` counting items as it goes, then stores it and marks it ready. A
   * retry starts over; on the last failed attempt the zip is failed. Nothing half-made is kept.
   */
  async build(zipId: string, context: ArchiveBuildContext): Promise<void> {
    const row = await this.deps.repo.find(zipId);
    if (!row || (row.status !== 'pending' && row.status !== 'building')) return;
    const failed = () =>
      this.deps.repo.update(row.id, { status: 'failed', updated_at: this.now() });
    let total = 0;
    await buildArchive(
      {
        storage: this.deps.storage,
        key: collectionZipKey(row.id),
        scratch: path.join(this.deps.tmpDir, `collection-zip-${row.id}-${context.attempt}.zip`),
        context,
        failure: { message: 'collection zip failed', ids: { zipId: row.id } },
      },
      {
        write: async (scratch, progress) => {
          const opened = await this.deps.repo.linkOf(row.link_id);
          const allowed =
            opened && opened.link.revoked_at === null && opened.link.download_enabled === 1;
          if (!opened || !allowed) {
            await failed();
            return false;
          }
          const wanted = new Map(JSON.parse(row.items) as Contents);
          const downloads = (await this.deps.links.downloads(opened)).filter(
            (d) => wanted.get(d.itemId) === d.download.key,
          );
          const entries = await this.entriesOf(downloads);
          // Failed (or removed) meanwhile: it is not built. `items` becomes what it holds (an
          // item the link stopped serving since the start is left out).
          const building = await this.deps.repo.move(row.id, ['pending', 'building'], {
            status: 'building',
            items: JSON.stringify(contentsOf(downloads)),
            done: 0,
            total: entries.length,
            updated_at: this.now(),
          });
          if (!building) return false;
          const onEntryCopied = (done: number) =>
            progress.add(() => this.deps.repo.update(row.id, { done, updated_at: this.now() }));
          await writeZip(this.deps.storage, entries, scratch, { onEntryCopied }, context.signal);
          total = entries.length;
          return true;
        },
        stored: (size) =>
          this.deps.repo.move(row.id, ['building'], {
            status: 'ready',
            done: total,
            object_key: collectionZipKey(row.id),
            size,
            updated_at: this.now(),
          }),
        failed,
      },
    );
  }

  /**
   * The recurring clean-up: deletes the zips whose day is over, and their objects; then the
   * objects left without a row (their link went with its collection), once an hour old.
   * Returns how many zips went.
   */
  async expire(): Promise<number> {
    const now = this.now();
    let removed = await expireArchives(this.deps.storage, {
      expired: (limit) => this.deps.repo.expired(now, limit),
      keyOf: (row) => row.object_key ?? collectionZipKey(row.id),
      forget: (row) => this.deps.repo.delete(row.id),
    });
    const before = this.deps.clock.now().getTime() - HOUR_MS;
    const stored = (await this.deps.storage.list(ZIP_PREFIX)).filter(
      (object) => object.lastModified.getTime() < before,
    );
    const ids = stored.map((object) => idOfKey(object.key));
    const kept = new Set(await this.deps.repo.existing(ids));
    for (const object of stored) {
      if (kept.has(idOfKey(object.key))) continue;
      await this.deps.storage.delete(object.key);
      removed += 1;
    }
    return removed;
  }

  /** `NN - Title.ext` for each item, safe and unique inside the zip. */
  private async entriesOf(downloads: LinkDownload[]): Promise<ZipEntry[]> {
    const names = new UniqueNames();
    const digits = Math.max(2, String(downloads.length).length);
    const entries: ZipEntry[] = [];
    for (const [index, { title, download, createdAt }] of downloads.entries()) {
      const size = download.size ?? (await this.deps.storage.head(download.key))?.size;
      if (size === undefined) throw new Error(`original ${download.key} is missing`);
      const number = String(index + 1).padStart(digits, '0');
      entries.push({
        path: names.take(
          `${number} - ${safeSegment(title, 'Untitled')}`,
          path.extname(download.fileName),
        ),
        key: download.key,
        size,
        mtime: new Date(createdAt),
      });
    }
    return entries;
  }

  /**
   * What a ready zip holds, when the link serves exactly those takes now (the same rule as every
   * other route of the link: `downloads()`); 410 'out of date' otherwise.
   */
  private async requireCurrent(
    opened: OpenedCollectionLink,
    row: CollectionLinkZipsTable,
  ): Promise<Contents> {
    const items = JSON.parse(row.items) as Contents;
    const now = contentsOf(await this.deps.links.downloads(opened));
    if (!sameTakes(items, now)) throw new Gone(COLLECTION_ZIP_MESSAGES.outOfDate);
    return items;
  }

  /** A zip of this link that has not expired (403 while the link does not allow downloads). */
  private async ownRow(
    opened: OpenedCollectionLink,
    zipId: string,
  ): Promise<CollectionLinkZipsTable> {
    if (opened.link.download_enabled !== 1) throw new Forbidden(SHARE_MESSAGES.downloadNotAllowed);
    const row = await this.deps.repo.find(zipId);
    if (!row || row.link_id !== opened.link.id)
      throw new NotFound(COLLECTION_ZIP_MESSAGES.notFound);
    requireUnexpired(row.expires_at, this.now(), COLLECTION_ZIP_MESSAGES.expired);
    return row;
  }

  private view(opened: OpenedCollectionLink, row: CollectionLinkZipsTable): CollectionZip {
    return {
      id: row.id,
      status: row.status,
      done: row.done,
      total: row.total,
      file_url:
        row.status === 'ready'
          ? `/api/collection-links/${opened.link.hash}/zip/${row.id}/file`
          : null,
      expires_at: row.expires_at,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
