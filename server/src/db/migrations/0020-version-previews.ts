import { sql, type Kysely } from 'kysely';
import { previewOf } from '../../modules/audio/previews';

/**
 * `version_previews`: the small waveforms a list (200 peaks) and a feed card (300 min/max pairs)
 * draw, one narrow row per processed version, written with the waveform itself (AudioRepo) and
 * removed with the version. Lists and feeds read these instead of parsing every version's full
 * overview (1,000 points and their min/max, 15-20 KB of JSON for a song). Existing waveforms are
 * previewed here, in pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table version_previews (
    version_id text primary key references versions (id) on delete cascade,
    peaks text not null,
    pairs text not null,
    duration double precision
  )`.execute(db);
  let after = '';
  for (;;) {
    const rows = (
      await sql<{ id: string; waveform: string | null }>`
        select id, waveform from versions
        where waveform is not null and id > ${after} order by id limit 500`.execute(db)
    ).rows;
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    for (const row of rows) {
      const preview = previewOf(row.waveform);
      if (!preview) continue;
      await sql`insert into version_previews (version_id, peaks, pairs, duration)
        values (${row.id}, ${preview.peaks}, ${preview.pairs}, ${preview.duration})`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists version_previews`.execute(db);
}
