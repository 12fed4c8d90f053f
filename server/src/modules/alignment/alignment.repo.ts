import type { Kysely } from 'kysely';
import type { Database, VersionAlignmentsTable, VersionStatus } from '../../db/schema';

/** What the alignment job needs of a version to decode it. */
export interface AlignableVersion {
  id: string;
  project_id: string;
  branch_id: string;
  version_number: number;
  status: VersionStatus;
  renditions: string;
  original_key: string | null;
  metadata: string | null;
}

/** SQL for how versions line up in time (`version_alignments`). */
export class AlignmentRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The pair's row, whichever way it was computed (a ready one first). */
  async find(a: string, b: string): Promise<VersionAlignmentsTable | undefined> {
    const rows = await this.db
      .selectFrom('version_alignments')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('from_version_id', '=', a), eb('to_version_id', '=', b)]),
          eb.and([eb('from_version_id', '=', b), eb('to_version_id', '=', a)]),
        ]),
      )
      .execute();
    return rows.find((row) => row.status === 'ready') ?? rows[0];
  }

  /** Every row between any two of these versions. */
  among(ids: readonly string[]): Promise<VersionAlignmentsTable[]> {
    if (ids.length < 2) return Promise.resolve([]);
    return this.db
      .selectFrom('version_alignments')
      .selectAll()
      .where('from_version_id', 'in', ids)
      .where('to_version_id', 'in', ids)
      .execute();
  }

  /** A pending row for the pair; false when one (either way) was there already. */
  async insertPending(from: string, to: string, now: string): Promise<boolean> {
    const result = await this.db
      .insertInto('version_alignments')
      .values({
        from_version_id: from,
        to_version_id: to,
        status: 'pending',
        confidence: null,
        segments: null,
        from_changes: null,
        to_changes: null,
        error: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['from_version_id', 'to_version_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(
    from: string,
    to: string,
    values: Partial<
      Pick<
        VersionAlignmentsTable,
        | 'status'
        | 'confidence'
        | 'segments'
        | 'from_changes'
        | 'to_changes'
        | 'error'
        | 'updated_at'
      >
    >,
  ): Promise<void> {
    await this.db
      .updateTable('version_alignments')
      .set(values)
      .where('from_version_id', '=', from)
      .where('to_version_id', '=', to)
      .execute();
  }

  /** Pending pairs that wait for this version to finish processing. */
  pendingWith(versionId: string): Promise<VersionAlignmentsTable[]> {
    return this.db
      .selectFrom('version_alignments')
      .selectAll()
      .where('status', '=', 'pending')
      .where((eb) =>
        eb.or([eb('from_version_id', '=', versionId), eb('to_version_id', '=', versionId)]),
      )
      .execute();
  }

  versions(ids: readonly string[]): Promise<AlignableVersion[]> {
    return this.db
      .selectFrom('versions')
      .select([
        'id',
        'project_id',
        'branch_id',
        'version_number',
        'status',
        'renditions',
        'original_key',
        'metadata',
      ])
      .where('id', 'in', ids)
      .execute();
  }

  /** The branch's latest processed version before this one (what a new version is aligned to). */
  async previousOf(version: AlignableVersion): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('versions')
      .select('id')
      .where('branch_id', '=', version.branch_id)
      .where('version_number', '<', version.version_number)
      .where('status', '=', 'completed')
      .orderBy('version_number', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * The steps a comment of an earlier version takes to reach this one: the branch's processed
   * versions before it, oldest first, then the version itself.
   */
  async chainTo(versionId: string): Promise<{ id: string; version_number: number }[]> {
    const self = this.db.selectFrom('versions as self').where('self.id', '=', versionId);
    const earlier = await this.db
      .selectFrom('versions')
      .select(['id', 'version_number'])
      .where('branch_id', '=', self.select('self.branch_id'))
      .where('version_number', '<', self.select('self.version_number'))
      .where('status', '=', 'completed')
      .orderBy('version_number')
      .execute();
    const own = await this.db
      .selectFrom('versions')
      .select(['id', 'version_number'])
      .where('id', '=', versionId)
      .executeTakeFirst();
    return own ? [...earlier, own] : earlier;
  }
}
