import type { Kysely } from 'kysely';
import type { ReviewStatus } from '@takes/contract';
import type { Database, VersionReviewsTable } from '../../db/schema';
import type { Executor } from '../activity';

/** A change of review status with its author's names. */
export interface ReviewRow extends VersionReviewsTable {
  display_name: string | null;
  user_name: string | null;
  blind_test_name: string | null;
}

/** SQL for versions' review statuses and their history. */
export class ReviewRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The status now, read in the caller's transaction. */
  async currentStatus(db: Executor, versionId: string): Promise<ReviewStatus | undefined> {
    return (
      await db
        .selectFrom('versions')
        .select('review_status')
        .where('id', '=', versionId)
        .executeTakeFirst()
    )?.review_status;
  }

  async setStatus(db: Executor, row: VersionReviewsTable): Promise<void> {
    await db
      .updateTable('versions')
      .set({ review_status: row.status })
      .where('id', '=', row.version_id)
      .execute();
    await db.insertInto('version_reviews').values(row).execute();
  }

  /** Every change of a version's status, newest first. */
  history(versionId: string, limit?: number): Promise<ReviewRow[]> {
    let query = this.db
      .selectFrom('version_reviews')
      .leftJoin('profiles', 'profiles.user_id', 'version_reviews.user_id')
      .leftJoin('users', 'users.id', 'version_reviews.user_id')
      .leftJoin('blind_tests', 'blind_tests.id', 'version_reviews.blind_test_id')
      .selectAll('version_reviews')
      .select([
        'profiles.display_name',
        'users.name as user_name',
        'blind_tests.name as blind_test_name',
      ])
      .where('version_reviews.version_id', '=', versionId)
      .orderBy('version_reviews.created_at', 'desc')
      .orderBy('version_reviews.id', 'desc');
    if (limit !== undefined) query = query.limit(limit);
    return query.execute();
  }

  async status(versionId: string): Promise<ReviewStatus | undefined> {
    return (
      await this.db
        .selectFrom('versions')
        .select('review_status')
        .where('id', '=', versionId)
        .executeTakeFirst()
    )?.review_status;
  }

  async branchName(branchId: string): Promise<string | undefined> {
    return (
      await this.db
        .selectFrom('branches')
        .select('name')
        .where('id', '=', branchId)
        .executeTakeFirst()
    )?.name;
  }
}
