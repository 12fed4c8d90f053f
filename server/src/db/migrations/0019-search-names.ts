import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-sql';

/**
 * SQLite: project and branch names searched through FTS5 (trigram) as versions are (0018), so a
 * search no longer lowers and LIKEs every name of a person's projects and branches. The narrow
 * `search_names` rows (one per project: name and description; one per branch: its name) have
 * their own integer key and are kept by triggers; the FTS index follows them. PostgreSQL already
 * has trigram indexes on these columns (0018): nothing to do there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  await sql`create table search_names (
    id integer primary key,
    target_id text not null unique,
    kind text not null,
    project_id text not null,
    name text not null,
    description text
  )`.execute(db);
  await sql`insert into search_names (target_id, kind, project_id, name, description)
    select id, 'project', id, name, description from projects`.execute(db);
  await sql`insert into search_names (target_id, kind, project_id, name, description)
    select id, 'branch', project_id, name, null from branches`.execute(db);
  await sql`create trigger search_names_project_insert after insert on projects begin
    insert into search_names (target_id, kind, project_id, name, description)
    values (new.id, 'project', new.id, new.name, new.description);
  end`.execute(db);
  await sql`create trigger search_names_project_update after update of name, description on projects begin
    update search_names set name = new.name, description = new.description where target_id = new.id;
  end`.execute(db);
  await sql`create trigger search_names_project_delete after delete on projects begin
    delete from search_names where target_id = old.id;
  end`.execute(db);
  await sql`create trigger search_names_branch_insert after insert on branches begin
    insert into search_names (target_id, kind, project_id, name, description)
    values (new.id, 'branch', new.project_id, new.name, null);
  end`.execute(db);
  await sql`create trigger search_names_branch_update after update of name on branches begin
    update search_names set name = new.name where target_id = new.id;
  end`.execute(db);
  await sql`create trigger search_names_branch_delete after delete on branches begin
    delete from search_names where target_id = old.id;
  end`.execute(db);

  await sql`create virtual table search_names_fts using fts5(
    name, description, content = 'search_names', content_rowid = 'id', tokenize = 'trigram'
  )`.execute(db);
  await sql`insert into search_names_fts (search_names_fts) values ('rebuild')`.execute(db);
  await sql`create trigger search_names_fts_insert after insert on search_names begin
    insert into search_names_fts (rowid, name, description) values (new.id, new.name, new.description);
  end`.execute(db);
  await sql`create trigger search_names_fts_delete after delete on search_names begin
    insert into search_names_fts (search_names_fts, rowid, name, description)
    values ('delete', old.id, old.name, old.description);
  end`.execute(db);
  await sql`create trigger search_names_fts_update after update on search_names begin
    insert into search_names_fts (search_names_fts, rowid, name, description)
    values ('delete', old.id, old.name, old.description);
    insert into search_names_fts (rowid, name, description) values (new.id, new.name, new.description);
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  for (const trigger of [
    'search_names_fts_update',
    'search_names_fts_delete',
    'search_names_fts_insert',
    'search_names_branch_delete',
    'search_names_branch_update',
    'search_names_branch_insert',
    'search_names_project_delete',
    'search_names_project_update',
    'search_names_project_insert',
  ])
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists search_names_fts`.execute(db);
  await sql`drop table if exists search_names`.execute(db);
}
