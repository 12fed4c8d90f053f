import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DataExportsTable } from '../../db/schema';

export type ExportRow = Selectable<DataExportsTable>;

/** The data_exports rows, and the reads of what a person owns that go into their zip. */
export class ExportsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: DataExportsTable): Promise<void> {
    await this.db.insertInto('data_exports').values(row).execute();
  }

  find(id: string): Promise<ExportRow | undefined> {
    return this.db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The person's export in flight (queued or running), if any. */
  active(userId: string): Promise<ExportRow | undefined> {
    return this.db
      .selectFrom('data_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
  }

  latest(userId: string): Promise<ExportRow | undefined> {
    return this.db
      .selectFrom('data_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async update(id: string, patch: Updateable<DataExportsTable>): Promise<void> {
    await this.db.updateTable('data_exports').set(patch).where('id', '=', id).execute();
  }

  /** Ready exports whose day is over (their objects are still stored). */
  expiredReady(now: string, limit: number): Promise<ExportRow[]> {
    return this.db
      .selectFrom('data_exports')
      .selectAll()
      .where('state', '=', 'ready')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  // ---- what the zip holds: only what the person owns ----

  owner(userId: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** The person's collections, each with its items in order (references only: no audio). */
  async ownedCollections(userId: string) {
    const collections = await this.db
      .selectFrom('collections')
      .select(['id', 'name', 'description', 'created_at', 'updated_at'])
      .where('owner_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (collections.length === 0) return [];
    const items = await this.db
      .selectFrom('collection_items')
      .innerJoin('collections', 'collections.id', 'collection_items.collection_id')
      .select([
        'collection_items.id',
        'collection_items.collection_id',
        'collection_items.version_id',
        'collection_items.branch_id',
        'collection_items.bounce_id',
        'collection_items.created_at',
      ])
      .where('collections.owner_id', '=', userId)
      .orderBy('collection_items.collection_id')
      .orderBy('collection_items.position')
      .execute();
    const byCollection = new Map<string, typeof items>();
    for (const item of items) {
      const list = byCollection.get(item.collection_id);
      if (list) list.push(item);
      else byCollection.set(item.collection_id, [item]);
    }
    return collections.map((collection) => ({
      ...collection,
      items: byCollection.get(collection.id) ?? [],
    }));
  }

  /** The share links of the person's collections (every column but the password's hash). */
  collectionLinksOf(userId: string) {
    return this.db
      .selectFrom('collection_links as l')
      .innerJoin('collections as c', 'c.id', 'l.collection_id')
      .select([
        'l.id',
        'l.collection_id',
        'l.name',
        'l.recipient_name',
        'l.recipient_email',
        'l.download_enabled',
        'l.expires_at',
        'l.revoked_at',
        'l.created_at',
        'l.emailed_at',
        'l.first_played_at',
        (eb) => eb('l.password_hash', 'is not', null).as('has_password'),
      ])
      .where('c.owner_id', '=', userId)
      .orderBy('l.created_at')
      .orderBy('l.id')
      .execute();
  }

  /** The listen receipts of the person's collection links. */
  collectionReceiptsOf(userId: string) {
    return this.db
      .selectFrom('collection_link_receipts as r')
      .innerJoin('collection_links as l', 'l.id', 'r.link_id')
      .innerJoin('collections as c', 'c.id', 'l.collection_id')
      .selectAll('r')
      .where('c.owner_id', '=', userId)
      .orderBy('r.link_id')
      .orderBy('r.item_id')
      .execute();
  }

  ownedProjects(userId: string) {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('owner_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  branchesOf(projectId: string) {
    return this.db
      .selectFrom('branches')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  versionsOf(projectId: string) {
    return this.db
      .selectFrom('versions')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('branch_id')
      .orderBy('version_number')
      .execute();
  }

  commentsOfProject(projectId: string) {
    return this.db
      .selectFrom('comments')
      .innerJoin('versions', 'versions.id', 'comments.version_id')
      .leftJoin('users', 'users.id', 'comments.user_id')
      .selectAll('comments')
      .select('users.name as user_name')
      .where('versions.project_id', '=', projectId)
      .orderBy('comments.created_at')
      .orderBy('comments.id')
      .execute();
  }

  /** Every change of review status of the project's versions, oldest first. */
  reviewsOfProject(projectId: string) {
    return this.db
      .selectFrom('version_reviews')
      .innerJoin('versions', 'versions.id', 'version_reviews.version_id')
      .leftJoin('users', 'users.id', 'version_reviews.user_id')
      .selectAll('version_reviews')
      .select('users.name as user_name')
      .where('versions.project_id', '=', projectId)
      .orderBy('version_reviews.created_at')
      .orderBy('version_reviews.id')
      .execute();
  }

  linksOfProject(projectId: string) {
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  ownedRepos(userId: string) {
    return this.db
      .selectFrom('repos')
      .selectAll()
      .where('owner_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  repoBranchesOf(repoId: string) {
    return this.db
      .selectFrom('repo_branches')
      .selectAll()
      .where('repo_id', '=', repoId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  commitsOf(repoId: string) {
    return this.db
      .selectFrom('repo_commits')
      .selectAll()
      .where('repo_id', '=', repoId)
      .orderBy('seq')
      .execute();
  }

  bouncesOf(repoId: string) {
    return this.db
      .selectFrom('bounces')
      .selectAll()
      .where('repo_id', '=', repoId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}
