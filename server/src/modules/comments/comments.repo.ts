import type { Kysely, Transaction } from 'kysely';
import type { CommentsTable, Database } from '../../db/schema';

/** A comment with what its author line needs: the profile's name and avatar, the account name. */
export interface CommentRow extends CommentsTable {
  display_name: string | null;
  user_name: string | null;
  avatar_key: string | null;
  profile_updated_at: string | null;
}

/** SQL for comments on versions. */
export class CommentsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** A version's comments with their authors, oldest first. */
  listForVersion(versionId: string, options: { includeResolved: boolean }): Promise<CommentRow[]> {
    let query = this.db
      .selectFrom('comments')
      .leftJoin('profiles', 'profiles.user_id', 'comments.user_id')
      .leftJoin('users', 'users.id', 'comments.user_id')
      .selectAll('comments')
      .select([
        'profiles.display_name',
        'users.name as user_name',
        'profiles.avatar_key',
        'profiles.updated_at as profile_updated_at',
      ])
      .where('comments.version_id', '=', versionId);
    if (!options.includeResolved) query = query.where('comments.resolved_at', 'is', null);
    return query.orderBy('comments.created_at').orderBy('comments.id').execute();
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** What an activity line about a comment needs (read in the caller's transaction). */
  find(
    commentId: string,
    db: Kysely<Database> = this.db,
  ): Promise<Pick<CommentsTable, 'version_id' | 'timestamp_seconds' | 'parent_id'> | undefined> {
    return db
      .selectFrom('comments')
      .select(['version_id', 'timestamp_seconds', 'parent_id'])
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
