import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import { dialectOf } from '../../db/dialect-sql';
import { projectRolesOf, readableProjectOf } from '../access';

// The feed's versions: walked newest first and stopped at a page, or joined when the walk is
// not enough (docs/architecture.md, 'Who may do what').

/** How many of the instance's newest versions the feed walks before it sorts the person's own. */
export const FEED_WALK_WINDOW = 500;

/**
 * The newest project versions with stored or linked audio of every project the person owns or
 * is a member of (the feed's legacy part).
 */
export async function recentVersions(db: Kysely<Database>, userId: string, limit: number) {
  // The walk and the rows in one statement: when `limit` are found the walk was enough.
  const walked = await recentVersionRows(db, newestReadableByWalk(db, userId, limit));
  if (walked.length === limit)
    return walked.sort((a, b) =>
      a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : -1,
    );
  if (dialectOf(db as unknown as Kysely<unknown>) === 'sqlite') {
    // SQLite stores a row's columns in order, so reading created_at of a version walks past
    // its waveform: the newest come from the narrow search rows instead (migration 0018).
    const newest = await db
      .selectFrom('search_versions as s')
      .innerJoin(projectRolesOf(db, userId).as('access'), 'access.project_id', 's.project_id')
      .select('s.version_id as id')
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(limit)
      .execute();
    const rows = await recentVersionRows(
      db,
      newest.map((row) => row.id),
    );
    // Versions without audio are rare: only when some were left out is the long way needed.
    if (rows.length === newest.length) return rows;
  }
  // First the newest ids (narrow columns only): sorting whole rows would carry every
  // version's waveform and metadata through the sort to keep `limit` of them.
  const newest = await db
    .selectFrom('versions as v')
    .innerJoin(projectRolesOf(db, userId).as('access'), 'access.project_id', 'v.project_id')
    .select(['v.id', 'v.created_at'])
    .where((eb) => eb.or([eb('v.original_key', 'is not', null), eb('v.file_url', 'is not', null)]))
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(limit)
    .execute();
  return recentVersionRows(
    db,
    newest.map((row) => row.id),
  );
}

/**
 * A query of the ids of the newest `limit` versions the person may read, found by walking the
 * instance's newest FEED_WALK_WINDOW versions in the feed's order (index on created_at, migration
 * 0023) and keeping the readable ones; fewer than `limit` when fewer are among them. The readable ones of
 * that window are the first of all readable versions in the same order, so `limit` of them are
 * the answer; a person with many projects then costs no more than one with few, where joining
 * every visible project's versions and sorting them all grows with the account.
 */
function newestReadableByWalk(db: Kysely<Database>, userId: string, limit: number) {
  const sqlite = dialectOf(db as unknown as Kysely<unknown>) === 'sqlite';
  // SQLite orders the narrow search rows (a version's own row carries its waveform inline)
  // and reads a version's row only for its audio: original_key comes before the waveform, and
  // file_url (after it) only when there is no original.
  const window = sqlite
    ? sql`select s.version_id as id, s.project_id, s.created_at, s.id as k
        from search_versions s join versions v on v.id = s.version_id
        where v.original_key is not null or v.file_url is not null
        order by s.created_at desc, s.id desc limit ${FEED_WALK_WINDOW}`
    : sql`select id, project_id, created_at, id as k from versions
        where original_key is not null or file_url is not null
        order by created_at desc, id desc limit ${FEED_WALK_WINDOW}`;
  return sql<string>`select w.id from (${window}) as w
    where ${readableProjectOf(db, userId, 'w.project_id')}
    order by w.created_at desc, w.k desc
    limit ${limit}`;
}

/**
 * The feed's columns of these versions (those with audio): in the order given for a list of
 * ids, in no particular order for a query of ids.
 */
async function recentVersionRows(db: Kysely<Database>, ids: string[] | RawBuilder<string>) {
  if (Array.isArray(ids) && ids.length === 0) return [];
  const rows = await db
    .selectFrom('versions as v')
    .innerJoin('projects as p', 'p.id', 'v.project_id')
    .leftJoin('version_previews as vp', 'vp.version_id', 'v.id')
    .select([
      'v.id',
      'v.created_at',
      'v.metadata',
      'vp.pairs as preview_pairs',
      'vp.duration as preview_duration',
      'v.version_number',
      'v.message',
      'v.original_key',
      'v.file_url',
      'v.review_status',
      'p.id as project_id',
      'p.name as project_name',
    ])
    .where(
      Array.isArray(ids)
        ? sql<boolean>`v.id in (${sql.join(ids)})`
        : sql<boolean>`v.id in (${ids})`,
    )
    .where((eb) => eb.or([eb('v.original_key', 'is not', null), eb('v.file_url', 'is not', null)]))
    .execute();
  if (!Array.isArray(ids)) return rows;
  const order = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}
