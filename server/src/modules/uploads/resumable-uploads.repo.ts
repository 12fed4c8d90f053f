import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ResumableUploadsTable } from '../../db/schema';

export type ResumableUploadRow = Selectable<ResumableUploadsTable>;

/** SQL for resumable (tus) uploads: one row per upload, from create to finish or expiry. */
export class ResumableUploadsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: {
    id: string;
    user_id: string;
    kind: ResumableUploadsTable['kind'];
    size: number;
    created_at: string;
  }): Promise<void> {
    await this.db
      .insertInto('resumable_uploads')
      .values({ ...row, state: 'receiving', updated_at: row.created_at })
      .execute();
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
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('resumable_uploads').where('id', '=', id).execute();
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
