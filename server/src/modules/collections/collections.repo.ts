import { sql, type Kysely } from 'kysely';
import { ACTIONS, roleAtLeast, type Role } from '@takes/contract';
import { dialectOf } from '../../db/dialect-sql';
import type { CollectionItemsTable, CollectionsTable, Database } from '../../db/schema';
import { projectRolesOf, readableProject, repoRolesOf } from '../access/access-sql';
import { audioView } from '../audio/audio-view';

/** A bounce item's bounce as read for one person. */
export interface ResolvedBounce {
  id: string;
  title: string;
  status: 'processing' | 'completed' | 'failed';
  repo_id: string;
  repo_name: string;
  branch_name: string;
  duration: number | null;
}

/**
 * An item as read for one person: its target resolved to a version or a bounce, if any, and
 * whether they may read it.
 */
export interface ResolvedItemRow {
  id: string;
  collection_id: string;
  position: number;
  version_id: string | null;
  branch_id: string | null;
  bounce_id: string | null;
  /**
   * The target's project (a pinned version's, or a followed branch's) or, for a bounce, its
   * repository is readable by the person.
   */
  readable: boolean;
  /**
   * The person may share the target (`ACTIONS.share`, Editor and up, on its project or, for a
   * bounce, its repository): a collection link serves an item only while its owner may.
   */
  shareable: boolean;
  /** A bounce item's bounce (null for other items). */
  bounce: ResolvedBounce | null;
  resolved_id: string | null;
  version_number: number | null;
  message: string | null;
  status: 'processing' | 'completed' | 'failed' | null;
  project_id: string | null;
  project_name: string | null;
  resolved_branch_id: string | null;
  branch_name: string | null;
  duration: number | null;
}

/** The database or a transaction on it. */
export type Executor = Kysely<Database>;

export type AppendResult = { kind: 'added' } | { kind: 'missing' } | { kind: 'duplicate' };
export type ReorderResult = 'reordered' | 'missing' | 'stale';

/** The SQL of collections and their items. */
export class CollectionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: CollectionsTable): Promise<void> {
    await this.db.insertInto('collections').values(row).execute();
  }

  /** The collection (who may see it is the access policy's business). */
  find(id: string): Promise<CollectionsTable | undefined> {
    return this.db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The person's own collections and those they are a member of, with their role, newest first. */
  listFor(userId: string): Promise<(CollectionsTable & { role: Role })[]> {
    return this.db
      .selectFrom('collections as c')
      .leftJoin('collection_members as m', (j) =>
        j.onRef('m.collection_id', '=', 'c.id').on('m.user_id', '=', userId),
      )
      .selectAll('c')
      .select(sql<Role>`case when c.owner_id = ${userId} then 'owner' else m.role end`.as('role'))
      .where((eb) => eb.or([eb('c.owner_id', '=', userId), eb('m.user_id', 'is not', null)]))
      .orderBy('c.updated_at', 'desc')
      .orderBy('c.id')
      .execute();
  }

  async update(
    id: string,
    patch: Partial<Pick<CollectionsTable, 'name' | 'description' | 'updated_at'>>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('collections')
      .set(patch)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string, executor: Kysely<Database> = this.db): Promise<boolean> {
    const result = await executor.deleteFrom('collections').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * The collection, its row locked until the transaction ends (as `lock`), so a cover change and
   * a delete take turns.
   */
  async findLocked(trx: Kysely<Database>, id: string): Promise<CollectionsTable | undefined> {
    let query = trx.selectFrom('collections').selectAll().where('id', '=', id);
    if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  /** Sets (or, with null, removes) a collection's cover. */
  async setCover(
    trx: Kysely<Database>,
    id: string,
    cover: { key: string; type: string } | null,
    now: string,
  ): Promise<void> {
    await trx
      .updateTable('collections')
      .set({ cover_key: cover?.key ?? null, cover_type: cover?.type ?? null, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /**
   * The items of these collections with their targets resolved for `userId`: a pinned version
   * itself, or the newest version of a followed branch whose processing completed. Ordered by
   * collection, then position.
   */
  async resolvedItems(userId: string, collectionIds: string[]): Promise<ResolvedItemRow[]> {
    if (collectionIds.length === 0) return [];
    const items = this.db
      .selectFrom('collection_items as ci')
      .select((eb) => [
        'ci.id',
        'ci.collection_id',
        'ci.position',
        'ci.version_id',
        'ci.branch_id',
        'ci.bounce_id',
        eb.fn
          .coalesce(
            'ci.version_id',
            eb
              .selectFrom('versions as lv')
              .select('lv.id')
              .whereRef('lv.branch_id', '=', 'ci.branch_id')
              .where('lv.status', '=', 'completed')
              .orderBy('lv.version_number', 'desc')
              .limit(1),
          )
          .as('resolved_id'),
      ])
      .where('ci.collection_id', 'in', collectionIds)
      .as('r');
    const rows = await this.db
      .selectFrom(items)
      .leftJoin('versions as v', 'v.id', 'r.resolved_id')
      .leftJoin('branches as fb', 'fb.id', 'r.branch_id')
      .leftJoin('projects as p', (join) =>
        join.on(sql<boolean>`p.id = coalesce(v.project_id, fb.project_id)`),
      )
      .leftJoin('branches as vb', 'vb.id', 'v.branch_id')
      .leftJoin('version_previews as vp', 'vp.version_id', 'v.id')
      .select([
        'r.id',
        'r.collection_id',
        'r.position',
        'r.version_id',
        'r.branch_id',
        'r.bounce_id',
        'r.resolved_id',
        'v.version_number',
        'v.message',
        'v.status',
        'p.id as project_id',
        'p.name as project_name',
        'vb.id as resolved_branch_id',
        'vb.name as branch_name',
        'vp.duration',
        sql<boolean | number | null>`(p.id is not null and ${readableProject(userId, 'p')})`.as(
          'readable',
        ),
      ])
      .select((eb) =>
        eb
          .selectFrom(projectRolesOf(this.db, userId).as('pr'))
          .select('pr.role')
          .whereRef('pr.project_id', '=', 'p.id')
          .limit(1)
          .as('role'),
      )
      .orderBy('r.collection_id')
      .orderBy('r.position')
      .execute();
    const bounces = await this.bouncesFor(
      userId,
      rows.flatMap((row) => (row.bounce_id ? [row.bounce_id] : [])),
    );
    return rows.map((row) => {
      const bounce = row.bounce_id ? bounces.get(row.bounce_id) : undefined;
      if (row.bounce_id)
        return {
          ...withoutRole(row),
          readable: bounce?.readable ?? false,
          shareable: Boolean(bounce?.readable && roleAtLeast(bounce.role, ACTIONS.share)),
          bounce: bounce?.readable ? bounce.bounce : null,
          duration: bounce?.readable ? bounce.bounce.duration : null,
        };
      return {
        ...withoutRole(row),
        readable: Boolean(row.readable),
        shareable: Boolean(row.readable) && roleAtLeast(row.role, ACTIONS.share),
        bounce: null,
        duration: row.duration == null ? null : Number(row.duration),
      };
    });
  }

  /**
   * These bounces with their repository and branch, whether the person may read them and their
   * role there.
   */
  private async bouncesFor(
    userId: string,
    ids: string[],
  ): Promise<Map<string, { readable: boolean; role: Role | null; bounce: ResolvedBounce }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('bounces as b')
      .innerJoin('repos as rp', 'rp.id', 'b.repo_id')
      .innerJoin('repo_branches as rb', 'rb.id', 'b.branch_id')
      .select([
        'b.id',
        'b.title',
        'b.status',
        'b.metadata',
        'b.waveform',
        'rp.id as repo_id',
        'rp.name as repo_name',
        'rb.name as branch_name',
        sql<
          boolean | number
        >`(rp.owner_id = ${userId} or rp.id in (select repo_id from repo_members where user_id = ${userId}))`.as(
          'readable',
        ),
      ])
      .select((eb) =>
        eb
          .selectFrom(repoRolesOf(this.db, userId).as('rr'))
          .select('rr.role')
          .whereRef('rr.repo_id', '=', 'rp.id')
          .limit(1)
          .as('role'),
      )
      .where('b.id', 'in', ids)
      .execute();
    return new Map(
      rows.map((row) => [
        row.id,
        {
          readable: Boolean(row.readable),
          role: row.role ?? null,
          bounce: {
            id: row.id,
            title: row.title,
            status: row.status,
            repo_id: row.repo_id,
            repo_name: row.repo_name,
            branch_name: row.branch_name,
            duration: audioView(row).duration,
          },
        },
      ]),
    );
  }

  /**
   * Appends an item at the end of a collection, in one transaction that first locks the
   * collection (so concurrent appends and reorders take turns).
   */
  appendItem(item: CollectionItemsTable): Promise<AppendResult> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.lock(trx, item.collection_id))) return { kind: 'missing' };
      let same = trx
        .selectFrom('collection_items')
        .select('id')
        .where('collection_id', '=', item.collection_id);
      if (item.version_id !== null) same = same.where('version_id', '=', item.version_id);
      else if (item.bounce_id !== null) same = same.where('bounce_id', '=', item.bounce_id);
      else same = same.where('branch_id', '=', item.branch_id ?? '');
      if (await same.executeTakeFirst()) return { kind: 'duplicate' };
      const last = await trx
        .selectFrom('collection_items')
        .select((eb) => eb.fn.max<number | null>('position').as('max'))
        .where('collection_id', '=', item.collection_id)
        .executeTakeFirst();
      const position = last?.max == null ? 0 : Number(last.max) + 1;
      await trx
        .insertInto('collection_items')
        .values({ ...item, position })
        .execute();
      await this.touch(trx, item.collection_id, item.created_at);
      return { kind: 'added' };
    });
  }

  /** Removes an item of a collection; 'missing' / 'no-item' when either is not there. */
  removeItem(collectionId: string, itemId: string, now: string) {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.lock(trx, collectionId))) return 'missing' as const;
      const result = await trx
        .deleteFrom('collection_items')
        .where('id', '=', itemId)
        .where('collection_id', '=', collectionId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return 'no-item' as const;
      await this.touch(trx, collectionId, now);
      return 'removed' as const;
    });
  }

  /**
   * Gives the items positions 0..n-1 in the order of `itemIds`, which must be exactly the
   * collection's current items ('stale' otherwise), in one transaction after locking the
   * collection.
   */
  reorder(collectionId: string, itemIds: string[], now: string): Promise<ReorderResult> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.lock(trx, collectionId))) return 'missing';
      const current = await trx
        .selectFrom('collection_items')
        .select('id')
        .where('collection_id', '=', collectionId)
        .execute();
      const ids = new Set(current.map((row) => row.id));
      if (ids.size !== itemIds.length || itemIds.some((id) => !ids.has(id))) return 'stale';
      // Two steps so that no row ever takes a position another still holds (the unique key
      // is checked row by row): first -1..-n, then 0..n-1.
      for (const [index, id] of itemIds.entries())
        await trx
          .updateTable('collection_items')
          .set({ position: -1 - index })
          .where('id', '=', id)
          .execute();
      await trx
        .updateTable('collection_items')
        .set({ position: sql<number>`-1 - position` })
        .where('collection_id', '=', collectionId)
        .execute();
      await this.touch(trx, collectionId, now);
      return 'reordered';
    });
  }

  /**
   * Whether the collection is still there, locking its row until the transaction ends
   * (PostgreSQL: `for update`; SQLite: the one connection's transaction already runs alone).
   */
  private async lock(trx: Kysely<Database>, id: string): Promise<boolean> {
    let query = trx.selectFrom('collections').select('id').where('id', '=', id);
    if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') query = query.forUpdate();
    return (await query.executeTakeFirst()) !== undefined;
  }

  private async touch(trx: Kysely<Database>, id: string, now: string): Promise<void> {
    await trx.updateTable('collections').set({ updated_at: now }).where('id', '=', id).execute();
  }
}

/** A row without the role it was read with (the item says what the role allows instead). */
function withoutRole<T extends { role?: unknown }>(row: T): Omit<T, 'role'> {
  const { role: _role, ...rest } = row;
  return rest;
}
