import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, GuestFilesTable, UploadLinksTable } from '../../db/schema';

export type Executor = Kysely<Database>;
export type UploadLinkRow = Selectable<UploadLinksTable> & { branch_name: string };
export type GuestFileRow = Selectable<GuestFilesTable>;

/**
 * SQL for file requests: upload links and the files guests sent through them. A guest file is
 * read here only; nothing outside this module reads `guest_files` but the stored-audio
 * reference count and processing (by id), so no list of versions can show one.
 */
export class GuestUploadsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The database outside any transaction (for the versions' numbering read). */
  get executor(): Executor {
    return this.db;
  }

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insertLink(row: Insertable<UploadLinksTable>): Promise<void> {
    await this.db.insertInto('upload_links').values(row).execute();
  }

  /** Links with their branch's name now: the project's branch or the repository's. */
  private links(db: Executor) {
    return db
      .selectFrom('upload_links as l')
      .leftJoin('branches as b', 'b.id', 'l.branch_id')
      .leftJoin('repo_branches as rb', 'rb.id', 'l.repo_branch_id')
      .selectAll('l')
      .select(sql<string>`coalesce(b.name, rb.name, '')`.as('branch_name'));
  }

  linkById(id: string, db: Executor = this.db): Promise<UploadLinkRow | undefined> {
    return this.links(db).where('l.id', '=', id).executeTakeFirst();
  }

  linkByKey(key: string): Promise<UploadLinkRow | undefined> {
    return this.links(this.db).where('l.key', '=', key).executeTakeFirst();
  }

  linksOfProject(projectId: string): Promise<UploadLinkRow[]> {
    return this.links(this.db)
      .where('l.project_id', '=', projectId)
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id')
      .limit(200)
      .execute();
  }

  linksOfRepo(repoId: string): Promise<UploadLinkRow[]> {
    return this.links(this.db)
      .where('l.repo_id', '=', repoId)
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id')
      .limit(200)
      .execute();
  }

  async revokeLink(id: string, at: string): Promise<void> {
    await this.db
      .updateTable('upload_links')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** What the link has taken so far, read under the link's upload lock (the caller's transaction). */
  async received(
    linkId: string,
    db: Executor,
  ): Promise<{ files: number; bytes: number } | undefined> {
    const row = await db
      .selectFrom('upload_links')
      .select(['files_received', 'bytes_received'])
      .where('id', '=', linkId)
      .executeTakeFirst();
    return row && { files: Number(row.files_received), bytes: Number(row.bytes_received) };
  }

  async countReceived(linkId: string, bytes: number, db: Executor): Promise<void> {
    await db
      .updateTable('upload_links')
      .set({
        files_received: sql`files_received + 1`,
        bytes_received: sql`bytes_received + ${bytes}`,
      })
      .where('id', '=', linkId)
      .execute();
  }

  async insertFile(row: GuestFilesTable, db: Executor): Promise<void> {
    await db.insertInto('guest_files').values(row).execute();
  }

  fileById(id: string, db: Executor = this.db): Promise<GuestFileRow | undefined> {
    return db.selectFrom('guest_files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  filesOf(projectId: string, branchId: string | undefined): Promise<GuestFileRow[]> {
    let query = this.db.selectFrom('guest_files').selectAll().where('project_id', '=', projectId);
    if (branchId) query = query.where('branch_id', '=', branchId);
    return query.orderBy('created_at', 'desc').orderBy('id').limit(500).execute();
  }

  filesOfRepo(repoId: string, repoBranchId: string | undefined): Promise<GuestFileRow[]> {
    let query = this.db.selectFrom('guest_files').selectAll().where('repo_id', '=', repoId);
    if (repoBranchId) query = query.where('repo_branch_id', '=', repoBranchId);
    return query.orderBy('created_at', 'desc').orderBy('id').limit(500).execute();
  }

  async deleteFile(id: string, db: Executor): Promise<boolean> {
    const result = await db.deleteFrom('guest_files').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The list and feed preview of a version made from a guest's file (as processing writes it). */
  async insertPreview(
    versionId: string,
    preview: { peaks: string; pairs: string; duration: number | null },
    db: Executor,
  ): Promise<void> {
    await db
      .insertInto('version_previews')
      .values({ version_id: versionId, ...preview })
      .execute();
  }

  /** The branch as it is now (it may have gone since the file came). */
  branch(branchId: string, db: Executor) {
    return db
      .selectFrom('branches')
      .select(['id', 'project_id', 'name'])
      .where('id', '=', branchId)
      .executeTakeFirst();
  }
}
