import type { RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { CollectionLinksTable, CollectionsTable } from '../../db/schema';
import type { ActivityLog } from '../activity';
import { countsThisHour, type Listener } from '../sharing';
import type { CollectionLinksRepo, ReceiptEvent } from './collection-links.repo';
import type { ResolvedItemRow } from './collections.repo';

/**
 * A link's receipts: each listen event and download of an item it shows, counted once per
 * listener and address an hour. Only the counts and the time are kept, nothing about the
 * visitor. A link's first play is recorded for its owner whether or not it is counted.
 */
export class CollectionLinkReceipts {
  constructor(
    private readonly deps: {
      links: CollectionLinksRepo;
      limiter: RateLimiter;
      clock: Clock;
      /** A link's first play is recorded (its owner is notified; no project feed shows it). */
      activity: ActivityLog;
    },
  ) {}

  /** One event of an item the link shows now. */
  async count(
    { link, collection }: { link: CollectionLinksTable; collection: CollectionsTable },
    item: ResolvedItemRow,
    event: ReceiptEvent,
    listener: Listener,
  ): Promise<void> {
    if (event !== 'play') return this.countOnce(link, item.id, event, listener);
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

  /** One download of an item (on its own, or in a zip). */
  download(link: CollectionLinksTable, itemId: string, listener: Listener): Promise<void> {
    return this.countOnce(link, itemId, 'download', listener);
  }

  private async countOnce(
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
}
