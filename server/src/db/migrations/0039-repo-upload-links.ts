import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-sql';

/**
 * Upload links of a repository's branch (bounces): `upload_links` and `guest_files` get
 * `repo_id` and `repo_branch_id` beside `project_id` and `branch_id`, and exactly one of the two
 * pairs is set (a check). Deleting the repository or its branch takes its links and files.
 *
 * PostgreSQL drops the two NOT NULLs and adds the columns and checks in place. SQLite cannot
 * change a column's NOT NULL or add a check, so both tables are rebuilt in the migration run's
 * one transaction: the guests' files are kept aside first (dropping `upload_links` would empty
 * their `link_id`), then the links' table is filled anew and renamed, then the files go back.
 * Nothing else points at either table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const table of ['upload_links', 'guest_files'] as const) {
      await sql`alter table ${sql.table(table)}
        alter column project_id drop not null,
        alter column branch_id drop not null,
        add column repo_id text references repos(id) on delete cascade,
        add column repo_branch_id text references repo_branches(id) on delete cascade,
        add constraint ${sql.raw(`${table}_one_place`)} check (${ONE_PLACE})`.execute(db);
    }
  } else {
    await rebuildOnSqlite(db, true);
  }
  await repoIndexes(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from guest_files where repo_id is not null`.execute(db);
  await sql`delete from upload_links where repo_id is not null`.execute(db);
  if (dialectOf(db) === 'postgres') {
    for (const index of REPO_INDEXES) await db.schema.dropIndex(index.name).execute();
    for (const table of ['upload_links', 'guest_files'] as const) {
      await sql`alter table ${sql.table(table)}
        drop constraint ${sql.raw(`${table}_one_place`)},
        drop column repo_id,
        drop column repo_branch_id,
        alter column project_id set not null,
        alter column branch_id set not null`.execute(db);
    }
  } else {
    await rebuildOnSqlite(db, false);
  }
}

/** A project's branch, or a repository's branch: one pair, whole. */
const ONE_PLACE = sql`(project_id is not null and branch_id is not null and repo_id is null and repo_branch_id is null) or (project_id is null and branch_id is null and repo_id is not null and repo_branch_id is not null)`;

const REPO_INDEXES = [
  { name: 'upload_links_repo_idx', table: 'upload_links', columns: ['repo_id', 'created_at'] },
  { name: 'guest_files_repo_idx', table: 'guest_files', columns: ['repo_id', 'created_at'] },
  {
    name: 'guest_files_repo_branch_idx',
    table: 'guest_files',
    columns: ['repo_branch_id', 'created_at'],
  },
] as const;

async function repoIndexes(db: Kysely<unknown>): Promise<void> {
  for (const index of REPO_INDEXES)
    await db.schema
      .createIndex(index.name)
      .on(index.table)
      .columns([...index.columns])
      .execute();
}

/** The indexes of 0038 (a dropped table takes its indexes with it). */
async function placeIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`create index upload_links_project_idx on upload_links (project_id, created_at)`.execute(
    db,
  );
  await sql`create index guest_files_branch_idx on guest_files (branch_id, created_at)`.execute(db);
  await sql`create index guest_files_project_idx on guest_files (project_id, created_at)`.execute(
    db,
  );
  await sql`create index guest_files_original_idx on guest_files (original_key)`.execute(db);
}

/**
 * Rebuilds both tables on SQLite with (or, for `down`, which has deleted the repositories'
 * rows, without) the repository's pair, every row copied.
 */
async function rebuildOnSqlite(db: Kysely<unknown>, withRepo: boolean): Promise<void> {
  const place = withRepo
    ? sql`project_id text references projects(id) on delete cascade,
      branch_id text references branches(id) on delete cascade,
      repo_id text references repos(id) on delete cascade,
      repo_branch_id text references repo_branches(id) on delete cascade,`
    : sql`project_id text not null references projects(id) on delete cascade,
      branch_id text not null references branches(id) on delete cascade,`;
  const check = withRepo ? sql`, constraint one_place check (${ONE_PLACE})` : sql``;
  const linkColumns = sql`id, project_id, branch_id, created_by, key, name, message,
    password_hash, max_files, max_bytes, files_received, bytes_received, expires_at, revoked_at,
    created_at`;
  const fileColumns = sql`id, link_id, link_name, project_id, branch_id, guest_name, guest_email,
    original_key, original_name, original_size, original_format, status, error, metadata,
    waveform, loudness, renditions, created_at, updated_at`;

  // Kept aside: dropping the links' table would empty the files' link_id.
  await sql`create temp table kept_guest_files as select * from guest_files`.execute(db);
  await sql`drop table guest_files`.execute(db);

  await sql`create table upload_links_next (
    id text primary key,
    ${place}
    created_by text not null,
    key text not null unique,
    name text not null,
    message text,
    password_hash text,
    max_files integer not null,
    max_bytes integer not null,
    files_received integer not null default 0,
    bytes_received integer not null default 0,
    expires_at text not null,
    revoked_at text,
    created_at text not null${check}
  )`.execute(db);
  await sql`insert into upload_links_next (${linkColumns})
    select ${linkColumns} from upload_links`.execute(db);
  await sql`drop table upload_links`.execute(db);
  await sql`alter table upload_links_next rename to upload_links`.execute(db);

  await sql`create table guest_files (
    id text primary key,
    link_id text references upload_links(id) on delete set null,
    link_name text not null,
    ${place}
    guest_name text not null,
    guest_email text,
    original_key text not null,
    original_name text not null,
    original_size integer not null,
    original_format text not null,
    status text not null default 'processing',
    error text,
    metadata text,
    waveform text,
    loudness text,
    renditions text not null default '{}',
    created_at text not null,
    updated_at text not null${check}
  )`.execute(db);
  await sql`insert into guest_files (${fileColumns})
    select ${fileColumns} from kept_guest_files`.execute(db);
  await sql`drop table kept_guest_files`.execute(db);
  await placeIndexes(db);
}
