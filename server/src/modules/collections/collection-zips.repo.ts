import type { Kysely, Updateable } from 'kysely';
import type { CollectionLinkZipsTable, Database } from '../../db/schema';
import { linkWithCollection } from './collection-links.repo';
import type { OpenedCollectionLink } from './opened-link';

/** The SQL of 'Download all' zips of collection links. */
export class CollectionZipsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: CollectionLinkZipsTable): Promise<void> {
    await this.db.insertInto('collection_link_zips').values(row).execute();
  }

  find(id: string): Promise<CollectionLinkZipsTable | undefined> {
    return this.db
      .selectFrom('collection_link_zips')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The link's zips not failed and not expired at `now`, newest first. */
  live(linkId: string, now: string): Promise<CollectionLinkZipsTable[]> {
    return this.db
      .selectFrom('collection_link_zips')
      .selectAll()
      .where('link_id', '=', linkId)
      .where('status', '!=', 'failed')
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  async update(id: string, patch: Updateable<CollectionLinkZipsTable>): Promise<void> {
    await this.db.updateTable('collection_link_zips').set(patch).where('id', '=', id).execute();
  }

  /**
   * Moves a zip from one status to another: false when it was not in `from` (another attempt
   * took it, or it went).
   */
  async move(
    id: string,
    from: CollectionLinkZipsTable['status'][],
    patch: Updateable<CollectionLinkZipsTable>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('collection_link_zips')
      .set(patch)
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Zips whose day is over (any status), oldest first. */
  expired(now: string, limit: number): Promise<CollectionLinkZipsTable[]> {
    return this.db
      .selectFrom('collection_link_zips')
      .selectAll()
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Which of these zip ids have a row. */
  async existing(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('collection_link_zips')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    return rows.map((row) => row.id);
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('collection_link_zips').where('id', '=', id).execute();
  }

  /** The link a zip was made for, with its collection (whatever the link's state now). */
  linkOf(linkId: string): Promise<OpenedCollectionLink | undefined> {
    return linkWithCollection(this.db, 'id', linkId);
  }
}
