import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-sql';

/**
 * Search by each database's own engine, kept in step with writes by the database itself.
 *
 * SQLite: `search_versions` holds each version's searchable words and sort keys in a narrow row
 * (its integer key survives VACUUM, which may renumber the versions' implicit rowids), kept by
 * triggers on `versions`; an FTS5 index with the trigram tokenizer (substring matching, as the
 * LIKE it replaces) follows `search_versions` through the standard external-content triggers.
 * Projects and branches are few per person and matched by LIKE.
 *
 * PostgreSQL: pg_trgm GIN indexes on the lowered words, which `lower(x) like '%q%'` uses. pg_trgm
 * is a trusted extension (any owner of the database may create it); where it is not installed the
 * indexes are left out and search still works, by scanning.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    const schema = await trigramSchema(db);
    if (!schema) return;
    for (const [name, table, column] of [
      ['versions_message_trgm_idx', 'versions', 'message'],
      ['versions_tags_trgm_idx', 'versions', 'tags'],
      ['projects_name_trgm_idx', 'projects', 'name'],
      ['projects_description_trgm_idx', 'projects', 'description'],
      ['branches_name_trgm_idx', 'branches', 'name'],
    ] as const)
      await sql`create index ${sql.id(name)} on ${sql.id(table)} using gin (lower(${sql.id(column)}) ${sql.id(schema, 'gin_trgm_ops')})`.execute(
        db,
      );
    return;
  }
  await sql`create table search_versions (
    id integer primary key,
    version_id text not null unique,
    project_id text not null,
    created_at text not null,
    message text,
    tags text
  )`.execute(db);
  await sql`create index search_versions_project_idx on search_versions (project_id, created_at)`.execute(
    db,
  );
  await sql`insert into search_versions (version_id, project_id, created_at, message, tags)
    select id, project_id, created_at, message, tags from versions`.execute(db);
  await sql`create trigger search_versions_insert after insert on versions begin
    insert into search_versions (version_id, project_id, created_at, message, tags)
    values (new.id, new.project_id, new.created_at, new.message, new.tags);
  end`.execute(db);
  await sql`create trigger search_versions_update after update of message, tags on versions begin
    update search_versions set message = new.message, tags = new.tags where version_id = new.id;
  end`.execute(db);
  await sql`create trigger search_versions_delete after delete on versions begin
    delete from search_versions where version_id = old.id;
  end`.execute(db);

  await sql`create virtual table search_versions_fts using fts5(
    message, tags, content = 'search_versions', content_rowid = 'id', tokenize = 'trigram'
  )`.execute(db);
  await sql`insert into search_versions_fts (search_versions_fts) values ('rebuild')`.execute(db);
  await sql`create trigger search_versions_fts_insert after insert on search_versions begin
    insert into search_versions_fts (rowid, message, tags) values (new.id, new.message, new.tags);
  end`.execute(db);
  await sql`create trigger search_versions_fts_delete after delete on search_versions begin
    insert into search_versions_fts (search_versions_fts, rowid, message, tags)
    values ('delete', old.id, old.message, old.tags);
  end`.execute(db);
  await sql`create trigger search_versions_fts_update after update on search_versions begin
    insert into search_versions_fts (search_versions_fts, rowid, message, tags)
    values ('delete', old.id, old.message, old.tags);
    insert into search_versions_fts (rowid, message, tags) values (new.id, new.message, new.tags);
  end`.execute(db);
}

/**
 * The schema pg_trgm lives in, installing it (in `public` when there is one, so dropping Takes'
 * own schema never takes it from others) if it is available but missing; null when it is not
 * available. Extensions are per database: a lock held to the end of this transaction keeps two
 * schemas' migrations from installing it at the same moment.
 */
async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  await sql`select pg_advisory_xact_lock(hashtext('takes.extension.pg_trgm'))`.execute(db);
  const installed = async () =>
    (
      await sql<{ schema: string }>`
        select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  const available = await sql<{ n: number }>`
    select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if ((available.rows[0]?.n ?? 0) === 0) return null;
  const hasPublic = await sql<{ n: number }>`
    select count(*)::int as n from pg_namespace where nspname = 'public'`.execute(db);
  if ((hasPublic.rows[0]?.n ?? 0) > 0)
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  else await sql`create extension if not exists pg_trgm`.execute(db);
  return installed();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const name of [
      'versions_message_trgm_idx',
      'versions_tags_trgm_idx',
      'projects_name_trgm_idx',
      'projects_description_trgm_idx',
      'branches_name_trgm_idx',
    ])
      await sql`drop index if exists ${sql.id(name)}`.execute(db);
    return;
  }
  for (const trigger of [
    'search_versions_fts_update',
    'search_versions_fts_delete',
    'search_versions_fts_insert',
    'search_versions_delete',
    'search_versions_update',
    'search_versions_insert',
  ])
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists search_versions_fts`.execute(db);
  await sql`drop table if exists search_versions`.execute(db);
}
