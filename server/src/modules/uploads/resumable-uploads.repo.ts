import { sql, type Kysely, type Selectable } from 'kysely';
import { dialectOf } from '../../db/dialect-sql';
import type { Database, ResumableUploadsTable } from '../../db/schema';
import type { HeldUploads } from './open-upload-caps';

export type ResumableUploadRow = Selectable<ResumableUploadsTable>;

/** SQL for resumable (tus) uploads: one row per upload, from create to finish or expiry. */
export class ResumableUploadsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts the upload unless `refuse`, given the person's unfinished uploads (receiving, started
   * after `openSince`), answers a reason, which is then returned. The count and the insert run
   * under a per-person lock, so two creations at once cannot both take the last slot. `refuse`
   * may read more under the same lock through the transaction it is given (an upload link's
   * counts: its uploads' `user_id` is the link's).
   */
  async insertUnlessRefused<Reason>(
    row: {
      id: string;
      user_id: string;
      kind: ResumableUploadsTable['kind'];
      size: number;
      created_at: string;
    },
    openSince: string,
    refuse: (
      held: HeldUploads,
      trx: Kysely<Database>,
    ) => Reason | undefined | Promise<Reason | undefined>,
  ): Promise<Reason | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await lockUploadsOf(trx, row.user_id);
      const counted = await trx
        .selectFrom('resumable_uploads')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('open'),
          eb.fn.coalesce(eb.fn.sum<number | string | null>('size'), sql<number>`0`).as('bytes'),
        ])
        .where('user_id', '=', row.user_id)
        .where('state', '=', 'receiving')
        .where('created_at', '>', openSince)
        .executeTakeFirstOrThrow();
      const reason = await refuse(
        { open: Number(counted.open), bytes: Number(counted.bytes) },
        trx,
      );
      if (reason !== undefined) return reason;
      await trx
        .insertInto('resumable_uploads')
        .values({ ...row, state: 'receiving', updated_at: row.created_at })
        .execute();
      return undefined;
    });
  }

  async byId(id: string): Promise<ResumableUploadRow | undefined> {
    return this.db
      .selectFrom('resumable_uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Adds one request's stored bytes (a delta computed from the store's offsets). */
  async addReceived(id: string, bytes: number, now: string): Promise<void> {
    await this.db
      .updateTable('resumable_uploads')
      .set({
        received_bytes: sql`received_bytes + ${bytes}`,
        patches: sql`patches + 1`,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async markFinished(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('resumable_uploads')
      .set({ state: 'finished', updated_at: now })
      .where('id', '=', id)
      .execute();
    await this.releaseQuota(id);
  }

  /** Removes the upload, and the storage quota's hold for it (it shares the upload's id). */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('resumable_uploads').where('id', '=', id).execute();
    await this.releaseQuota(id);
  }

  private async releaseQuota(id: string): Promise<void> {
    await this.db.deleteFrom('storage_reservations').where('id', '=', id).execute();
  }

  /** Uploads started before `cutoff` (finished ones too: their rows only keep the byte count). */
  async startedBefore(cutoff: string, limit: number): Promise<ResumableUploadRow[]> {
    return this.db
      .selectFrom('resumable_uploads')
      .selectAll()
      .where('created_at', '<', cutoff)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }
}

/**
 * Serialises the creations of one person's uploads until the transaction ends. The one place
 * the dialects differ:
 * - PostgreSQL: a transaction-level advisory lock on a hash of the person's id (a plain count
 *   then insert would let two transactions both see room; a collision only makes two people wait
 *   for each other's few milliseconds).
 * - SQLite: the database write lock, taken now by a write that changes nothing (a deferred
 *   transaction that only reads would not take it).
 */
async function lockUploadsOf(trx: Kysely<Database>, userId: string): Promise<void> {
  // dialectOf reads only the adapter, so it takes any Kysely.
  if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`takes.resumable-uploads.${userId}`}))`.execute(
      trx,
    );
  } else {
    await sql`update resumable_uploads set id = id where 0 = 1`.execute(trx);
  }
}
