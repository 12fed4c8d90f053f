import { sql, type Kysely, type Transaction } from 'kysely';
import type { CollectionLinkReceiptsTable, CollectionLinksTable, Database } from '../../db/schema';
import { ownerLinksLive } from '../admin';
import { listenerName } from '../people';
import type { OpenedCollectionLink } from './opened-link';

/**
 * A link, by its id or its key, with the collection it opens. By its key (a visitor), a disabled
 * owner's links are none when the admin did not keep them.
 */
export async function linkWithCollection(
  db: Kysely<Database>,
  by: 'id' | 'hash',
  value: string,
): Promise<OpenedCollectionLink | undefined> {
  let query = db.selectFrom('collection_links').selectAll().where(by, '=', value);
  if (by === 'hash')
    query = query.where(
      ownerLinksLive(
        sql<string>`(select owner_id from collections where collections.id = collection_links.collection_id)`,
      ),
    );
  const link = await query.executeTakeFirst();
  if (!link) return undefined;
  const collection = await db
    .selectFrom('collections')
    .selectAll()
    .where('id', '=', link.collection_id)
    .executeTakeFirst();
  return collection ? { link, collection } : undefined;
}

/** The counter each receipt event adds one to. */
export const RECEIPT_COLUMNS = {
  play: 'plays_started',
  played_30s: 'plays_30s',
  played_90: 'plays_90',
  download: 'downloads',
} as const;
export type ReceiptEvent = keyof typeof RECEIPT_COLUMNS;

/** The SQL of collection share links. */
export class CollectionLinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** All the links at once (one per recipient), or none. */
  async insertAll(rows: CollectionLinksTable[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('collection_links').values(rows).execute();
  }

  /** A collection's links, revoked ones too, newest first. */
  listByCollection(collectionId: string): Promise<CollectionLinksTable[]> {
    return this.db
      .selectFrom('collection_links')
      .selectAll()
      .where('collection_id', '=', collectionId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** False when the link is not this collection's, or was revoked already. */
  async revoke(collectionId: string, linkId: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('collection_links')
      .set({ revoked_at: at })
      .where('id', '=', linkId)
      .where('collection_id', '=', collectionId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A link by its key, with the collection it opens. */
  findByHash(hash: string): Promise<OpenedCollectionLink | undefined> {
    return linkWithCollection(this.db, 'hash', hash);
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Marks the link played for the first time: true for exactly one caller, however many plays
   * start at once (a conditional update).
   */
  async markFirstPlayed(linkId: string, at: string, db: Kysely<Database> = this.db) {
    const result = await db
      .updateTable('collection_links')
      .set({ first_played_at: at })
      .where('id', '=', linkId)
      .where('first_played_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** One more of this event for the link and item: one upsert (concurrent ones add up). */
  async countReceipt(
    linkId: string,
    itemId: string,
    event: ReceiptEvent,
    at: string,
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    const column = RECEIPT_COLUMNS[event];
    await db
      .insertInto('collection_link_receipts')
      .values({
        link_id: linkId,
        item_id: itemId,
        plays_started: 0,
        plays_30s: 0,
        plays_90: 0,
        downloads: 0,
        [column]: 1,
        last_activity_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['link_id', 'item_id']).doUpdateSet((eb) => ({
          [column]: eb(`collection_link_receipts.${column}`, '+', 1),
          last_activity_at: at,
        })),
      )
      .execute();
  }

  /** The receipts of these links. */
  receipts(linkIds: string[]): Promise<CollectionLinkReceiptsTable[]> {
    if (linkIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('collection_link_receipts')
      .selectAll()
      .where('link_id', 'in', linkIds)
      .orderBy('link_id')
      .orderBy('item_id')
      .execute();
  }

  /** Notes that a link was emailed to its recipient. */
  async markEmailed(linkId: string, at: string): Promise<void> {
    await this.db
      .updateTable('collection_links')
      .set({ emailed_at: at })
      .where('id', '=', linkId)
      .execute();
  }

  /** The comments made through these links, oldest first, with their author's names. */
  comments(linkIds: string[]): Promise<LinkCommentRow[]> {
    if (linkIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('collection_link_comments as clc')
      .innerJoin('comments as c', 'c.id', 'clc.comment_id')
      .leftJoin('users as u', 'u.id', 'c.user_id')
      .leftJoin('profiles as pr', 'pr.user_id', 'c.user_id')
      .select([
        'c.id',
        'clc.link_id',
        'clc.item_id',
        'c.content',
        'c.timestamp_seconds',
        'c.created_at',
        'c.visitor_name',
        'u.name as user_name',
        'pr.display_name',
      ])
      .where('clc.link_id', 'in', linkIds)
      .orderBy('c.created_at')
      .orderBy('c.id')
      .execute();
  }

  /** How the owner signs a link's email: the name they chose, never their address. */
  async ownerName(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select(['users.name as user_name', 'profiles.display_name'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    return (row && listenerName(row)) ?? undefined;
  }
}

/** A comment made through a collection link, as its owner's list shows it. */
export interface LinkCommentRow {
  id: string;
  link_id: string;
  item_id: string | null;
  content: string;
  timestamp_seconds: number | null;
  created_at: string;
  visitor_name: string | null;
  user_name: string | null;
  display_name: string | null;
}
