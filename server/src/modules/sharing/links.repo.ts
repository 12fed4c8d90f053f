import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, LinksTable, ProjectRow } from '../../db/schema';
import { ownerLinksLive } from '../admin';

/**
 * SQL for share links. Members' reads and writes go by id once the access policy let them in; a
 * live link is not revoked. `owner_id` records who made the link.
 */
export class LinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(row: LinksTable, db: Kysely<Database> = this.db): Promise<void> {
    await db.insertInto('links').values(row).execute();
  }

  /**
   * One more play of a live link (nothing about who played it); its count after this one, or
   * null when the link is revoked or gone. Concurrent plays queue on the row's lock.
   */
  async countPlay(linkId: string, at: string, db: Kysely<Database>): Promise<number | null> {
    const result = await db
      .updateTable('links')
      .set((eb) => ({ play_count: eb('play_count', '+', 1), last_played_at: at }))
      .where('id', '=', linkId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return null;
    const row = await db
      .selectFrom('links')
      .select('play_count')
      .where('id', '=', linkId)
      .executeTakeFirstOrThrow();
    return Number(row.play_count);
  }

  /** False when the link is revoked (or gone). */
  /** Changes a live link's options ('Listeners see each other's comments', 'Allow approval'). */
  async setOptions(
    linkId: string,
    options: {
      listeners_see_each_other?: boolean | undefined;
      allow_approval?: boolean | undefined;
      /** A new password's hash, or null: none. */
      password_hash?: string | null;
    },
  ): Promise<boolean> {
    const set: {
      listeners_see_each_other?: number;
      allow_approval?: number;
      password_hash?: string | null;
    } = {};
    if (options.password_hash !== undefined) set.password_hash = options.password_hash;
    if (options.listeners_see_each_other !== undefined)
      set.listeners_see_each_other = options.listeners_see_each_other ? 1 : 0;
    if (options.allow_approval !== undefined) set.allow_approval = options.allow_approval ? 1 : 0;
    const result = await this.db
      .updateTable('links')
      .set(set)
      .where('id', '=', linkId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  findById(linkId: string, db: Kysely<Database> = this.db): Promise<LinksTable> {
    return db.selectFrom('links').selectAll().where('id', '=', linkId).executeTakeFirstOrThrow();
  }

  /** A version's live links, whoever of its project's editors made them, newest first. */
  listLive(versionId: string): Promise<LinksTable[]> {
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('version_id', '=', versionId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** False when the link was revoked already (or is gone). */
  async revoke(linkId: string, at: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const result = await db
      .updateTable('links')
      .set({ revoked_at: at })
      .where('id', '=', linkId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A link by its key; a disabled owner's links (when the admin did not keep them) are none. */
  findByHash(hash: string): Promise<LinksTable | undefined> {
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('hash', '=', hash)
      .where(
        ownerLinksLive(
          sql<string>`(select owner_id from projects where projects.id = links.project_id)`,
        ),
      )
      .executeTakeFirst();
  }

  /** The project a link points into. */
  findProject(projectId: string): Promise<ProjectRow | undefined> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirst();
  }
}
