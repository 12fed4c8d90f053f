import type { Kysely } from 'kysely';
import type { BounceUploadsTable, Database } from '../../db/schema';

/** The database or a transaction on it. */
type Executor = Kysely<Database>;

/** SQL for publish uploads (`bounce_uploads`): a token's row from publish to complete. */
export class PublishRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insertUpload(row: BounceUploadsTable, trx: Executor): Promise<void> {
    await trx.insertInto('bounce_uploads').values(row).execute();
  }

  upload(uploadId: string): Promise<BounceUploadsTable | undefined> {
    return this.db
      .selectFrom('bounce_uploads')
      .selectAll()
      .where('id', '=', uploadId)
      .executeTakeFirst();
  }

  /**
   * Changes an upload only if it is still in `from` (the compare-and-set that makes a token
   * single use): false when another request got there first.
   */
  async updateUploadIf(
    uploadId: string,
    from: BounceUploadsTable['status'],
    changes: Partial<BounceUploadsTable>,
    db: Executor = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('bounce_uploads')
      .set(changes)
      .where('id', '=', uploadId)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async deleteUpload(uploadId: string): Promise<void> {
    await this.db.deleteFrom('bounce_uploads').where('id', '=', uploadId).execute();
  }

  /**
   * The newest uploaded (not yet completed) upload matching a complete request, among those the
   * person started (an upload belongs to its starter; the access policy has been asked already).
   */
  completableUpload(
    starterId: string,
    repoId: string,
    match: { uploadId: string } | { branch: string; filename: string },
  ): Promise<BounceUploadsTable | undefined> {
    let query = this.db
      .selectFrom('bounce_uploads')
      .selectAll()
      .where('owner_id', '=', starterId)
      .where('repo_id', '=', repoId)
      .where('status', '=', 'uploaded');
    query =
      'uploadId' in match
        ? query.where('id', '=', match.uploadId)
        : query.where('branch', '=', match.branch).where('filename', '=', match.filename);
    return query.orderBy('updated_at', 'desc').executeTakeFirst();
  }
}
