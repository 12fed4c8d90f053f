import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect-sql';
import type { Database, ProcessedAudioColumns } from '../../db/schema';
import { previewOf } from './previews';

/**
 * Tables whose rows carry audio through the pipeline (same processing columns): versions,
 * bounces, and the files guests sent through upload links (`guest_files`, not yet versions).
 */
export type AudioTable = 'versions' | 'bounces' | 'guest_files';

/**
 * SQL for stored audio: references to shared originals, the clean-up table and the processing
 * columns of versions and bounces. Every method takes the executor it runs on (a transaction
 * when the caller holds one), since most of them only make sense under the key's lock.
 */
export class AudioRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Serialises everything that decides about one stored original: the writers that record a
   * reference to it and the clean-up that counts references before deleting it. Held until the
   * transaction ends. This is the one place the dialects differ:
   * - PostgreSQL: a transaction-level advisory lock on the key's hash (a collision only
   *   serialises two keys needlessly).
   * - SQLite: the database write lock. A deferred transaction that only reads does not take it,
   *   so a write statement that changes nothing takes it now.
   */
  async lockOriginal(key: string, trx: Kysely<Database>): Promise<void> {
    // dialectOf reads only the adapter, so it takes any Kysely.
    if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    } else {
      await sql`update original_refs set original_key = original_key where 0 = 1`.execute(trx);
    }
  }

  /**
   * Every reference to a stored original, counted in one statement (one snapshot): versions,
   * bounces, guests' files, bounce uploads not yet completed, and uploads in flight (`original_refs`).
   */
  async countOriginalRefs(key: string, db: Kysely<Database> = this.db): Promise<number> {
    const row = await db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('versions')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('original_key', '=', key)
          .as('versions'),
        eb
          .selectFrom('bounces')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('original_key', '=', key)
          .as('bounces'),
        eb
          .selectFrom('guest_files')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('original_key', '=', key)
          .as('guests'),
        eb
          .selectFrom('bounce_uploads')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('object_key', '=', key)
          .where('status', '!=', 'completed')
          .as('uploads'),
        eb
          .selectFrom('original_refs')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('original_key', '=', key)
          .as('pending'),
      ])
      .executeTakeFirst();
    return (
      Number(row?.versions ?? 0) +
      Number(row?.bounces ?? 0) +
      Number(row?.guests ?? 0) +
      Number(row?.uploads ?? 0) +
      Number(row?.pending ?? 0)
    );
  }

  async insertRef(
    ref: { id: string; original_key: string; created_at: string },
    db: Kysely<Database>,
  ): Promise<void> {
    await db.insertInto('original_refs').values(ref).execute();
  }

  async deleteRef(refId: string, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('original_refs').where('id', '=', refId).execute();
  }

  staleRefs(cutoff: string, limit: number) {
    return this.db
      .selectFrom('original_refs')
      .select(['id', 'original_key'])
      .where('created_at', '<', cutoff)
      .limit(limit)
      .execute();
  }

  async insertCleanupRows(
    rows: {
      id: string;
      batch_id: string;
      object_key: string;
      kind: 'object' | 'original';
      created_at: string;
    }[],
    trx: Kysely<Database>,
  ): Promise<void> {
    await trx.insertInto('storage_cleanup').values(rows).execute();
  }

  cleanupPage(batchId: string, limit: number) {
    return this.db
      .selectFrom('storage_cleanup')
      .select(['id', 'object_key', 'kind'])
      .where('batch_id', '=', batchId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async deleteCleanupRows(ids: string[]): Promise<void> {
    await this.db.deleteFrom('storage_cleanup').where('id', 'in', ids).execute();
  }

  // Both tables have every processing column; typing the query against `versions` covers both.
  processed(table: AudioTable, id: string): Promise<ProcessedAudioColumns | undefined> {
    return this.db
      .selectFrom(table as 'versions')
      .select([
        'original_key',
        'original_format',
        'status',
        'error',
        'metadata',
        'waveform',
        'loudness',
        'renditions',
        'updated_at',
      ])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Writes processing results. A version's waveform takes its list and feed preview with it, in
   * the same transaction (`version_previews`; none while there is no waveform).
   */
  async updateProcessed(
    table: AudioTable,
    id: string,
    values: Partial<ProcessedAudioColumns>,
  ): Promise<void> {
    if (table !== 'versions' || values.waveform === undefined) {
      await this.db
        .updateTable(table as 'versions')
        .set(values)
        .where('id', '=', id)
        .execute();
      return;
    }
    const preview = previewOf(values.waveform);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('versions').set(values).where('id', '=', id).execute();
      if (!preview) {
        await trx.deleteFrom('version_previews').where('version_id', '=', id).execute();
        return;
      }
      await trx
        .insertInto('version_previews')
        .values({ version_id: id, ...preview })
        .onConflict((oc) => oc.column('version_id').doUpdateSet(preview))
        .execute();
    });
  }

  /**
   * Sets the final status unless the row already has it; true when it changed (a re-run that
   * finds it already so changes nothing).
   */
  async settle(
    table: AudioTable,
    id: string,
    values: { status: 'completed' | 'failed'; error: string | null; updated_at: string },
    db: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable(table as 'versions')
      .set(values)
      .where('id', '=', id)
      .where('status', '<>', values.status)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Who uploaded a version, as its 'version.uploaded' activity says (null when not known). */
  async uploaderOf(versionId: string, db: Kysely<Database> = this.db): Promise<string | null> {
    const row = await db
      .selectFrom('activity')
      .select('actor_id')
      .where('target_id', '=', versionId)
      .where('kind', '=', 'version.uploaded')
      .executeTakeFirst();
    return row?.actor_id ?? null;
  }
}
