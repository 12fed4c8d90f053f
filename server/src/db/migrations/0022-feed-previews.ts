import { sql, type Kysely } from 'kysely';
import { previewOf } from '../../modules/audio/previews';

/**
 * Feed cards draw 100 min/max pairs in hundredths of full scale (they were 300 at full
 * precision: 4 KB of JSON a card, 200 KB for a feed of 50). The stored previews are drawn again
 * from each version's waveform, in pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (
      await sql<{ id: string; waveform: string | null }>`
        select v.id, v.waveform from versions v
        join version_previews p on p.version_id = v.id
        where v.id > ${after} order by v.id limit 500`.execute(db)
    ).rows;
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    for (const row of rows) {
      const preview = previewOf(row.waveform);
      if (!preview) continue;
      await sql`update version_previews set pairs = ${preview.pairs}
        where version_id = ${row.id}`.execute(db);
    }
  }
}

/** The smaller previews draw as well as the larger ones did: nothing to undo. */
export async function down(): Promise<void> {}
