import type { Kysely } from 'kysely';
import type { Database, LinksTable, ProjectsTable } from '../../db/schema';

/**
 * SQL for share links. Members' reads and writes go by id once the access policy let them in; a
 * live link is not revoked. `owner_id` records who made the link.
 */
export class LinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: LinksTable): Promise<void> {
    await this.db.insertInto('links').values(row).execute();
  }

  /** False when the link is revoked (or gone). */
  async setListenersSeeEachOther(linkId: string, value: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('links')
      .set({ listeners_see_each_other: value ? 1 : 0 })
      .where('id', '=', linkId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  findById(linkId: string): Promise<LinksTable> {
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('id', '=', linkId)
      .executeTakeFirstOrThrow();
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
  async revoke(linkId: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('links')
      .set({ revoked_at: at })
      .where('id', '=', linkId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  findByHash(hash: string): Promise<LinksTable | undefined> {
    return this.db.selectFrom('links').selectAll().where('hash', '=', hash).executeTakeFirst();
  }

  /** The project a link points into. */
  findProject(projectId: string): Promise<ProjectsTable | undefined> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirst();
  }
}
