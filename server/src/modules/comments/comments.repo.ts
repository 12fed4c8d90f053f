import type { Kysely, Transaction } from 'kysely';
import type { CommentsTable, Database } from '../../db/schema';
import { storedDuration } from '../audio';

/**
 * A comment with what its author line needs: the profile's name and avatar, the account's name
 * and address (the person presenter names the author from these).
 */
export interface CommentRow extends CommentsTable {
  version_number: number;
  display_name: string | null;
  user_name: string | null;
  user_email: string | null;
  avatar_key: string | null;
  profile_updated_at: string | null;
}

/** SQL for comments on versions. */
export class CommentsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A version's comments with their authors, oldest first; with `previous`, also those of the
   * same branch's earlier versions (each row says its version's number).
   */
  listForVersion(
    versionId: string,
    options: { includeResolved: boolean; previous?: boolean },
  ): Promise<CommentRow[]> {
    let query = this.db
      .selectFrom('comments')
      .innerJoin('versions', 'versions.id', 'comments.version_id')
      .leftJoin('profiles', 'profiles.user_id', 'comments.user_id')
      .leftJoin('users', 'users.id', 'comments.user_id')
      .selectAll('comments')
      .select([
        'profiles.display_name',
        'users.name as user_name',
        'users.email as user_email',
        'profiles.avatar_key',
        'profiles.updated_at as profile_updated_at',
        'versions.version_number',
      ]);
    if (options.previous) {
      // This version and the earlier ones of its branch.
      const self = this.db.selectFrom('versions as self').where('self.id', '=', versionId);
      query = query
        .where('versions.branch_id', '=', self.select('self.branch_id'))
        .where('versions.version_number', '<=', self.select('self.version_number'));
    } else {
      query = query.where('comments.version_id', '=', versionId);
    }
    if (!options.includeResolved) query = query.where('comments.resolved_at', 'is', null);
    return query.orderBy('comments.created_at').orderBy('comments.id').execute();
  }

  /** How long a version's audio is (seconds), when processing or probing has found out. */
  async versionDuration(versionId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('versions')
      .select(['metadata', 'waveform'])
      .where('id', '=', versionId)
      .executeTakeFirst();
    return storedDuration(row?.metadata, row?.waveform);
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** What an activity line about a comment needs (read in the caller's transaction). */
  find(
    commentId: string,
    db: Kysely<Database> = this.db,
  ): Promise<
    | Pick<
        CommentsTable,
        'version_id' | 'timestamp_seconds' | 'end_timestamp_seconds' | 'parent_id'
      >
    | undefined
  > {
    return db
      .selectFrom('comments')
      .select(['version_id', 'timestamp_seconds', 'end_timestamp_seconds', 'parent_id'])
      .where('id', '=', commentId)
      .executeTakeFirst();
  }

  findParent(
    commentId: string,
  ): Promise<Pick<CommentsTable, 'version_id' | 'team_only'> | undefined> {
    return this.db
      .selectFrom('comments')
      .select(['version_id', 'team_only'])
      .where('id', '=', commentId)
      .executeTakeFirst();
  }

  async insert(row: CommentsTable, db: Kysely<Database> = this.db): Promise<void> {
    await db.insertInto('comments').values(row).execute();
  }

  /** Notes that a comment came through a collection link, on one of its items. */
  async insertCollectionLinkComment(
    row: { comment_id: string; link_id: string; item_id: string },
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    await db.insertInto('collection_link_comments').values(row).execute();
  }

  async delete(commentId: string, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('comments').where('id', '=', commentId).execute();
  }

  async setResolvedAt(
    commentId: string,
    resolvedAt: string | null,
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    await db
      .updateTable('comments')
      .set({ resolved_at: resolvedAt })
      .where('id', '=', commentId)
      .execute();
  }
}
