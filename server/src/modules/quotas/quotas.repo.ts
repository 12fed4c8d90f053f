import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import { dialectOf } from '../../db/dialect-sql';

export type Executor = Kysely<Database>;

/** The renditions a row's `renditions` JSON may list, each with its `size`. */
const RENDITIONS = ['high', 'standard'] as const;

/**
 * The SQL of storage quotas. What a person holds: the originals and renditions of their projects'
 * versions, their repositories' bounces, and the guests' files waiting in either; an original is
 * content-addressed (its key is its hash) and counts once per person however many rows use it.
 *
 * Speed: every part is reached from the owner through an indexed column (projects by owner_id,
 * repos by owner_id, versions by project_id, bounces by repo_id, guest files by project_id and
 * repo_id) and summed in one statement; the originals are made distinct per owner by grouping.
 */
export class QuotasRepo {
  constructor(private readonly db: Executor) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The number at `path` of a JSON text column (0 when absent). */
  private jsonSize(column: string, key: string): RawBuilder<number> {
    if (dialectOf(this.db as unknown as Kysely<unknown>) === 'postgres')
      return sql<number>`coalesce((nullif(${sql.ref(column)}, '')::jsonb #>> ${`{${key},size}`})::bigint, 0)`;
    return sql<number>`coalesce(json_extract(${sql.ref(column)}, ${`$.${key}.size`}), 0)`;
  }

  private renditionSizes(column: string, keys: readonly string[]): RawBuilder<number> {
    return sql<number>`(${sql.join(
      keys.map((k) => this.jsonSize(column, k)),
      sql` + `,
    )})`;
  }

  /**
   * Every stored audio row with its holder (the project's or repository's owner), its original
   * and its renditions' sizes; `owner` limits it to one person (null: everyone).
   */
  private heldRows(owner: string | null) {
    const ownerIs = (column: string) =>
      owner === null ? sql<boolean>`1 = 1` : sql<boolean>`${sql.ref(column)} = ${owner}`;
    const renditions = (column: string) => this.renditionSizes(column, RENDITIONS);
    const lossless = (column: string) => this.jsonSize(column, 'lossless');
    return sql<{
      owner_id: string;
      original_key: string;
      original_size: number;
      renditions: number;
      lossless: number;
    }>`
      select p.owner_id, v.original_key, coalesce(v.original_size, 0) as original_size,
        ${renditions('v.renditions')} as renditions, ${lossless('v.renditions')} as lossless
      from projects p join versions v on v.project_id = p.id
      where ${ownerIs('p.owner_id')} and v.original_key is not null
      union all
      select r.owner_id, b.original_key, b.original_size,
        ${renditions('b.renditions')}, ${lossless('b.renditions')}
      from repos r join bounces b on b.repo_id = r.id
      where ${ownerIs('r.owner_id')}
      union all
      select p.owner_id, g.original_key, g.original_size,
        ${renditions('g.renditions')}, ${lossless('g.renditions')}
      from projects p join guest_files g on g.project_id = p.id
      where ${ownerIs('p.owner_id')}
      union all
      select r.owner_id, g.original_key, g.original_size,
        ${renditions('g.renditions')}, ${lossless('g.renditions')}
      from repos r join guest_files g on g.repo_id = r.id
      where ${ownerIs('r.owner_id')}`;
  }

  /**
   * Bytes per holder: each distinct original once (grouped by owner and key), plus every row's
   * renditions (their keys are the row's own, never shared).
   */
  private usedQuery(owner: string | null) {
    return sql<{ owner_id: string; bytes: number | string }>`
      select owner_id, sum(original_size + renditions) as bytes from (
        select owner_id, original_key, max(original_size) as original_size,
          sum(renditions + lossless) as renditions
        from (${this.heldRows(owner)}) held
        group by owner_id, original_key
      ) per_original
      group by owner_id`;
  }

  private async usedBy(owner: string | null, db: Executor): Promise<Map<string, number>> {
    const { rows } = await this.usedQuery(owner).execute(db);
    return new Map(rows.map((r) => [r.owner_id, Number(r.bytes)]));
  }

  async usedBytes(userId: string, db: Executor = this.db): Promise<number> {
    return (await this.usedBy(userId, db)).get(userId) ?? 0;
  }

  /**
   * What the person's stored audio takes and what their uploads in flight hold (but `except`'s
   * own), read in one statement so a hold released as its row commits is counted exactly once.
   */
  async usedAndHeld(
    userId: string,
    now: string,
    except: string,
    db: Executor,
  ): Promise<{ used: number; held: number }> {
    const { rows } = await sql<{ used: number | string | null; held: number | string | null }>`
      select
        (select sum(bytes) from (${this.usedQuery(userId)}) used_by) as used,
        (select sum(bytes) from storage_reservations
          where user_id = ${userId} and expires_at > ${now} and id <> ${except}) as held`.execute(
      db,
    );
    return { used: Number(rows[0]?.used ?? 0), held: Number(rows[0]?.held ?? 0) };
  }

  usedBytesByUser(): Promise<Map<string, number>> {
    return this.usedBy(null, this.db);
  }

  /** The whole instance, by kind: each original once in all, renditions, FLAC, covers, other. */
  async totals(): Promise<{ originals: number; renditions: number; lossless: number }> {
    const { rows } = await sql<{
      originals: number | string;
      renditions: number | string;
      lossless: number | string;
    }>`
      select coalesce(sum(original_size), 0) as originals, coalesce(sum(renditions), 0) as renditions,
        coalesce(sum(lossless), 0) as lossless
      from (
        select original_key, max(original_size) as original_size, sum(renditions) as renditions,
          sum(lossless) as lossless
        from (${this.heldRows(null)}) held
        group by original_key
      ) per_original`.execute(this.db);
    const row = rows[0];
    return {
      originals: Number(row?.originals ?? 0),
      renditions: Number(row?.renditions ?? 0),
      lossless: Number(row?.lossless ?? 0),
    };
  }

  async projectOwner(projectId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('projects')
      .select('owner_id')
      .where('id', '=', projectId)
      .executeTakeFirst();
    return row?.owner_id ?? null;
  }

  async repoOwner(repoId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('repos')
      .select('owner_id')
      .where('id', '=', repoId)
      .executeTakeFirst();
    return row?.owner_id ?? null;
  }

  async quotaOverride(userId: string, db: Executor = this.db): Promise<number | null> {
    const row = await db
      .selectFrom('user_controls')
      .select('storage_quota_bytes')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.storage_quota_bytes == null ? null : Number(row.storage_quota_bytes);
  }

  /** Serialises every quota decision about one person (until the transaction ends). */
  async lockUser(userId: string, trx: Executor): Promise<void> {
    if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(${`quota:${userId}`}))`.execute(trx);
    } else {
      // A write takes SQLite's one write lock for the rest of the transaction.
      await sql`update storage_reservations set id = id where 0 = 1`.execute(trx);
    }
  }

  async putReservation(
    row: { id: string; user_id: string; bytes: number; expires_at: string; created_at: string },
    trx: Executor,
  ): Promise<void> {
    await trx.deleteFrom('storage_reservations').where('id', '=', row.id).execute();
    await trx.insertInto('storage_reservations').values(row).execute();
  }

  async deleteReservation(id: string, db: Executor = this.db): Promise<void> {
    await db.deleteFrom('storage_reservations').where('id', '=', id).execute();
  }

  /** Drops holds past their time (an upload whose process ended without releasing), or one person's. */
  async deleteExpired(now: string, userId?: string, db: Executor = this.db): Promise<void> {
    let query = db.deleteFrom('storage_reservations').where('expires_at', '<=', now);
    if (userId) query = query.where('user_id', '=', userId);
    await query.execute();
  }
}
