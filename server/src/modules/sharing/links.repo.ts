import type { Kysely } from 'kysely';
import type { Database, LinksTable, ProjectsTable } from '../../db/schema';

/** SQL for share links. Owner-facing reads and writes name the owner; a live link is not revoked. */
export class LinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: LinksTable): Promise<void> {
    await this.db.insertInto('links').values(row).execute();
  }

  /** False when the link is not the owner's or is revoked. */
  async setListenersSeeEachOther(
    ownerId: string,
    linkId: string,
    value: boolean,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('links')
      .set({ listeners_see_each_other: value ? 1 : 0 })
      .where('id', '=', linkId)
      .where('owner_id', '=', ownerId)
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

  listLive(ownerId: string, versionId: string): Promise<LinksTable[]> {
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('version_id', '=', versionId)
      .where('owner_id', '=', ownerId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** False when the link is not the owner's or was revoked already. */
  async revoke(ownerId: string, linkId: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('links')
      .set({ revoked_at: at })
      .where('id', '=', linkId)
      .where('owner_id', '=', ownerId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  findByHash(hash: string): Promise<LinksTable | undefined> {
    return this.db.selectFrom('links').selectAll().where('hash', '=', hash).executeTakeFirst();
  }

  /** The project a link points into (a visitor has no owner id to name). */
  findProject(projectId: string): Promise<ProjectsTable | undefined> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirst();
  }
}
